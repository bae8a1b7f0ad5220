import Foundation
import Registry
import RegistryPostgres

/// `admin export` and `admin import`: moving an application between environments.
enum TransferCommands {
    /// Export files are read whole; anything larger is refused rather than exhausting memory.
    static let maxImportBytes = 512 << 20

    static func export(_ arguments: Arguments, transfer: ApplicationTransfer) throws {
        let code = try arguments.requiredOption("application")
        let document = try transfer.export(applicationCode: code)
        let text = JSONPrettyWriter.string(document.json) + "\n"
        if let path = arguments.option("out") {
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
                Console.fail("cannot write \(path)", status: 1)
            }
            let versions = document.types.reduce(0) { $0 + $1.versions.count }
            Console.message("exported \(versions) versions of \(document.types.count) types to \(path)")
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    static func importing(_ arguments: Arguments, transfer: ApplicationTransfer) throws {
        let code = try arguments.requiredOption("application")
        let path = arguments.positional[0]
        let dryRun = arguments.flag("dry-run")
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let data = FileManager.default.contents(atPath: path)
        else { Console.fail("cannot read \(path)", status: 1) }
        if let size = attributes[.size] as? Int, size > maxImportBytes {
            Console.fail("\(path) is larger than \(maxImportBytes) bytes", status: 1)
        }
        let document: ApplicationExport
        do {
            document = try ApplicationExport(json: JSONParser.parse([UInt8](data), options: .init(rejectDuplicateKeys: true)))
        } catch let error as JSONParseError {
            Console.fail("\(path): not JSON: \(error)", status: 1)
        } catch let error as RegistryError {
            Console.fail("\(path): \(error.message)", status: 1)
        }
        let outcome = try transfer.importing(document, intoApplicationCode: code, dryRun: dryRun)
        if !outcome.conflicts.isEmpty {
            for conflict in outcome.conflicts { Console.message("conflict: \(conflict)") }
            Console.fail("import stopped by \(outcome.conflicts.count) conflict(s); nothing written", status: 1)
        }
        let summary =
            "\(outcome.versionsAdded) versions, \(outcome.retiredAdded) retired numbers, "
            + "\(outcome.countersRaised) counters, \(outcome.policiesChanged) policies, "
            + "\(outcome.statesChanged) states, \(outcome.pinsChanged) pins, \(outcome.metadataChanged) metadata, "
            + "\(outcome.webhooksAdded) webhooks"
        if !outcome.changesAnything {
            print("unchanged: everything in \(path) is already in \(code)")
        } else if dryRun {
            print("dry run, nothing written: would import \(summary)")
        } else {
            print("imported \(summary)")
        }
    }
}
