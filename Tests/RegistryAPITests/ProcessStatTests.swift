@testable import RegistryAPI
import Testing

/// `/proc/self/stat` is read field by field after the command name, which may hold spaces and
/// parentheses.
@Suite struct ProcessStatTests {
    @Test func fieldsAreCountedAfterTheLastParenthesis() throws {
        // Fields 3–24 (proc(5)): utime 14 = 250 ticks, stime 15 = 50, starttime 22 = 1000, rss 24 = 300 pages.
        let line = "4242 (a) b (c d) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 9 0 1000 123456789 300 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"
        let stat = try #require(ProcessStat.parse(line))
        #expect(stat.cpuSeconds == 300 / ProcessStat.ticksPerSecond)
        #expect(stat.startTicks == 1000)
        #expect(stat.residentBytes == 300 * ProcessStat.pageBytes)
        #expect(ProcessStat.parse("4242 (truncated) S 1 2") == nil)
        #expect(ProcessStat.parse("no parenthesis") == nil)
    }
}
