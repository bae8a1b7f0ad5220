/// What one command accepts: its positional values, in order, and its `--name` options. Every
/// command declares one, so a word it does not declare is refused rather than ignored (an
/// ignored `--scope read` would silently issue a full-power token).
struct CommandSyntax: Sendable {
    /// How the command is spelled in messages, e.g. `admin issue-token`.
    let command: String
    /// Names of the required positional values, e.g. `FILE.swift`; none beyond these is accepted.
    var positionals: [String] = []
    var options: [Option] = []
    /// The last positional may be given more than once (`PATH...`).
    var lastPositionalRepeats = false
    /// Names of positional values that may follow the required ones, e.g. `[VERSION]`.
    var optionalPositionals: [String] = []

    struct Option: Sendable {
        enum Kind: Sendable {
            /// `--name VALUE`, at most once.
            case value
            /// `--name VALUE`, any number of times.
            case repeatable
            /// `--name`, no value.
            case flag
        }
        let name: String
        let kind: Kind

        static func value(_ name: String) -> Option { Option(name: name, kind: .value) }
        static func repeatable(_ name: String) -> Option { Option(name: name, kind: .repeatable) }
        static func flag(_ name: String) -> Option { Option(name: name, kind: .flag) }
    }

    /// Reads the words after the command, refusing an unknown option, an option without its
    /// value, a single-use option given twice, a missing positional value or a stray word.
    func parse(_ words: some Sequence<String>) throws(UsageError) -> Arguments {
        var arguments = Arguments()
        var iterator = words.makeIterator()
        while let word = iterator.next() {
            guard word.hasPrefix("-"), word != "-" else {
                guard arguments.positional.count < positionals.count + optionalPositionals.count
                    || (lastPositionalRepeats && !positionals.isEmpty)
                else {
                    throw UsageError("\(command): unexpected argument '\(word)'")
                }
                arguments.positional.append(word)
                continue
            }
            let name = String(word.drop { $0 == "-" })
            guard word.hasPrefix("--"), let option = options.first(where: { $0.name == name }) else {
                throw UsageError("\(command): unknown option '\(word)'")
            }
            switch option.kind {
            case .flag:
                guard !arguments.flags.contains(name) else { throw UsageError("\(command): \(word) is given twice") }
                arguments.flags.insert(name)
            case .value, .repeatable:
                guard let value = iterator.next(), !value.hasPrefix("--") else {
                    throw UsageError("\(command): \(word) needs a value")
                }
                if option.kind == .value, arguments.values[name] != nil {
                    throw UsageError("\(command): \(word) is given twice")
                }
                arguments.values[name, default: []].append(value)
            }
        }
        if arguments.positional.count < positionals.count {
            throw UsageError("\(command): \(positionals[arguments.positional.count]) is required")
        }
        return arguments
    }
}

/// The words of one command line, already checked against its `CommandSyntax`.
struct Arguments {
    fileprivate(set) var positional: [String] = []
    fileprivate var values: [String: [String]] = [:]
    fileprivate var flags: Set<String> = []

    func option(_ name: String) -> String? { values[name]?.first }

    /// Every value of a repeatable option, in the order given.
    func allValues(_ name: String) -> [String] { values[name] ?? [] }

    func flag(_ name: String) -> Bool { flags.contains(name) }

    func requiredOption(_ name: String) throws(UsageError) -> String {
        guard let value = option(name) else { throw UsageError("--\(name) is required") }
        return value
    }

    func integerOption(_ name: String) throws(UsageError) -> Int64? {
        guard let text = option(name) else { return nil }
        guard let value = Int64(text) else { throw UsageError("--\(name) must be an integer, got \"\(text)\"") }
        return value
    }

    func requiredIntegerOption(_ name: String) throws(UsageError) -> Int64 {
        guard let value = try integerOption(name) else { throw UsageError("--\(name) is required") }
        return value
    }
}

/// A command-line mistake: printed as one line with a pointer to `help`, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
