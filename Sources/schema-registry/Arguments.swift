/// Command-line arguments after the command words: positional values and `--name value`
/// options, with errors that name what is missing.
struct Arguments {
    private(set) var positional: [String] = []
    private var options: [String: String] = [:]
    private var setFlags: Set<String> = []

    /// - Parameter flags: options that take no value (`--dry-run`).
    init(_ words: ArraySlice<String>, flags: Set<String> = []) throws(UsageError) {
        var iterator = words.makeIterator()
        while let word = iterator.next() {
            if word.hasPrefix("--"), flags.contains(String(word.dropFirst(2))) {
                setFlags.insert(String(word.dropFirst(2)))
            } else if word.hasPrefix("--") {
                guard let value = iterator.next() else { throw UsageError("\(word) needs a value") }
                options[String(word.dropFirst(2))] = value
            } else {
                positional.append(word)
            }
        }
    }

    func option(_ name: String) -> String? { options[name] }

    func flag(_ name: String) -> Bool { setFlags.contains(name) }

    func requiredOption(_ name: String) throws(UsageError) -> String {
        guard let value = options[name] else { throw UsageError("--\(name) is required") }
        return value
    }

    func integerOption(_ name: String) throws(UsageError) -> Int64? {
        guard let text = options[name] else { return nil }
        guard let value = Int64(text) else { throw UsageError("--\(name) must be an integer, got \"\(text)\"") }
        return value
    }

    func requiredPositional(_ index: Int, _ name: String) throws(UsageError) -> String {
        guard positional.indices.contains(index) else { throw UsageError("\(name) is required") }
        return positional[index]
    }
}

/// A command-line mistake: printed as one line with a pointer to `help`, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
