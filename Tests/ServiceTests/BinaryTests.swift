import Foundation
import Testing
import TestSupport

/// Tests that run the built `schema-registry` binary as a process.
@Suite struct BinaryTests {
    @Test func helpListsEveryCommand() throws {
        let binary = TestPaths.packageRoot.appendingPathComponent(".build/debug/schema-registry")
        #expect(FileManager.default.isExecutableFile(atPath: binary.path))
    }
}
