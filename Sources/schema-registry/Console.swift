import Foundation

/// Messages for people go to stderr so stdout carries only a command's result.
enum Console {
    static func message(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func fail(_ text: String, status: Int32) -> Never {
        message("schema-registry: \(text)")
        exit(status)
    }
}
