import Registry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One `NNNN_name.sql` file. The number orders migrations and is what `schema_migrations`
/// records; the name is for people.
public struct Migration: Sendable, Equatable, CustomStringConvertible {
    /// The file's number: the order of application and the key in `schema_migrations`.
    public let version: Int
    /// The part after the underscore, recorded next to the version for people reading the table.
    public let name: String
    /// Where the SQL is read from when the migration is applied.
    public let path: String

    /// `0001_initial.sql`: the file as it is named on disk.
    public var fileName: String { String(path.split(separator: "/").last ?? Substring(path)) }

    /// `1 initial`: how logs and errors name a migration.
    public var description: String { "\(version) \(name)" }

    /// Parses `0001_initial.sql` → (1, "initial"); nil for anything else, so READMEs and editor
    /// backups next to the migrations are ignored.
    static func parse(fileName: String) -> (version: Int, name: String)? {
        guard fileName.hasSuffix(".sql"), let underscore = fileName.firstIndex(of: "_") else { return nil }
        let digits = fileName[..<underscore]
        let name = fileName[fileName.index(after: underscore)..<fileName.index(fileName.endIndex, offsetBy: -4)]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), !name.isEmpty,
            let version = Int(digits), version > 0
        else { return nil }
        return (version, String(name))
    }
}

/// Why migrations could not be read or applied. `description` names the file and the SQLSTATE;
/// `debugDetail` adds the server's message, which an operator running `migrate` needs.
public enum MigrationError: Error, Sendable, CustomStringConvertible {
    case unreadableDirectory(String)
    case unreadableFile(String)
    case duplicateVersion(Int)
    case noMigrations(String)
    case failed(Migration?, PGError)
    /// An applied migration's file changed afterwards: the database no longer matches it.
    case edited(Migration)

    /// Safe to log: names files and SQLSTATEs, never SQL text or server messages.
    public var description: String {
        switch self {
        case .unreadableDirectory(let path): "cannot read migrations directory \(path)"
        case .unreadableFile(let path): "cannot read migration file \(path)"
        case .duplicateVersion(let version): "two migration files have version \(version)"
        case .noMigrations(let path): "no NNNN_name.sql files in \(path)"
        case .failed(let migration?, let error): "migration \(migration) failed: \(error)"
        case .failed(nil, let error): "migration bookkeeping failed: \(error)"
        case .edited(let migration):
            "migration file \(migration.fileName) was edited after it was applied (its SHA-256 differs from schema_migrations); restore it and put the change in a new migration"
        }
    }

    /// `description` plus the server's message, for the operator running `migrate`.
    public var debugDetail: String {
        if case .failed(_, let error) = self { return "\(description)\n\(error.debugDetail)" }
        return description
    }
}

enum MigrationFiles {
    /// The migration files in `directory`, in version order.
    static func list(in directory: String) throws(MigrationError) -> [Migration] {
        guard let stream = opendir(directory) else { throw .unreadableDirectory(directory) }
        defer { closedir(stream) }
        var found: [Migration] = []
        while let entry = readdir(stream) {
            let fileName = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            guard let (version, name) = Migration.parse(fileName: fileName) else { continue }
            found.append(Migration(version: version, name: name, path: directory + "/" + fileName))
        }
        found.sort { $0.version < $1.version }
        for (a, b) in zip(found, found.dropFirst()) where a.version == b.version {
            throw .duplicateVersion(a.version)
        }
        return found
    }

    /// SHA-256 (hex) of the file's bytes, as recorded in `schema_migrations.checksum`.
    static func checksum(_ path: String) throws(MigrationError) -> String {
        SHA256.hexHash(try read(path))
    }

    static func read(_ path: String) throws(MigrationError) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw .unreadableFile(path) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count > 0 { bytes.append(contentsOf: chunk[0..<count]) }
            if count < chunk.count {
                if ferror(file) != 0 { throw .unreadableFile(path) }
                break
            }
        }
        return bytes
    }

    static func containsFirstMigration(_ directory: String) -> Bool {
        guard let files = try? list(in: directory) else { return false }
        return files.contains { $0.version == 1 && $0.path.hasPrefix(directory + "/0001_") }
    }

    /// The directory holding the running executable, via `/proc/self/exe`.
    static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return parent(of: path)
    }

    static func parent(of path: String) -> String? {
        guard path != "/", let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
