/// A Thompson automaton as a flat instruction list. Captures and priorities are dropped: a
/// yes/no match needs neither, which is what lets the simulation stay linear.
struct RegexProgram: Sendable {
    enum Instruction: Sendable {
        case codePoint(UInt32)
        case set(Int)
        case anyButLineTerminator
        case split(Int, Int)
        case jump(Int)
        case assertion(RegexAssertion)
        /// Holds when the sub-program `program` matches at this position (backwards for a
        /// lookbehind), or does not when negated.
        case lookaround(program: Int, negated: Bool)
        case match
    }

    var instructions: [Instruction] = []
    /// Whether the program reads text backwards from its start (a lookbehind body).
    var backwards = false
}

/// Turns a `RegexNode` into programs: index 0 is the pattern, the others are lookaround bodies.
struct RegexCompiler {
    /// The most instructions all programs together may hold. Counted repetition copies its
    /// body (`(a|b){1000}` is 3,000 instructions), so this is what bounds `{n,m}`.
    static let maximumInstructions = 20_000

    private(set) var programs: [RegexProgram] = []
    private(set) var sets: [RegexScalarSet] = []

    static func compile(_ node: RegexNode) throws(ECMARegexError) -> RegexCompiler {
        let size = estimatedSize(node)
        guard size <= maximumInstructions else {
            throw ECMARegexError(message: "the pattern expands to more than \(maximumInstructions) instructions (counted repetition copies its body); use a smaller count")
        }
        var compiler = RegexCompiler()
        _ = compiler.program(for: node, backwards: false)
        return compiler
    }

    /// An upper bound of the instructions `node` compiles to, saturating so huge counts
    /// cannot overflow.
    static func estimatedSize(_ node: RegexNode) -> Int {
        let cap = maximumInstructions + 1
        switch node {
        case .empty: return 0
        case .codePoint, .anyButLineTerminator, .set, .assertion, .backreference: return 1
        case .sequence(let nodes): return min(cap, nodes.reduce(0) { min(cap, $0 + estimatedSize($1)) })
        case .alternation(let nodes): return min(cap, nodes.reduce(0) { min(cap, $0 + estimatedSize($1) + 2) })
        case .lookaround(let body, _, _): return min(cap, estimatedSize(body) + 2)
        case .repetition(let body, let minimum, let maximum):
            let copies = max(minimum, maximum ?? minimum + 1, 1)
            let each = estimatedSize(body) + 2
            return each == 0 ? 0 : min(cap, copies > cap / each ? cap : copies * each)
        }
    }

    private mutating func program(for node: RegexNode, backwards: Bool) -> Int {
        let index = programs.count
        programs.append(RegexProgram(instructions: [], backwards: backwards))
        var code: [RegexProgram.Instruction] = []
        emit(node, into: &code, backwards: backwards)
        code.append(.match)
        programs[index].instructions = code
        return index
    }

    private mutating func emit(_ node: RegexNode, into code: inout [RegexProgram.Instruction], backwards: Bool) {
        switch node {
        case .empty, .backreference:
            break
        case .codePoint(let value):
            code.append(.codePoint(value))
        case .anyButLineTerminator:
            code.append(.anyButLineTerminator)
        case .set(let set):
            sets.append(set)
            code.append(.set(sets.count - 1))
        case .assertion(let assertion):
            code.append(.assertion(assertion))
        case .sequence(let nodes):
            for node in backwards ? nodes.reversed() : nodes { emit(node, into: &code, backwards: backwards) }
        case .alternation(let nodes):
            var jumpsToEnd: [Int] = []
            for (position, alternative) in nodes.enumerated() {
                if position < nodes.count - 1 {
                    let split = code.count
                    code.append(.split(split + 1, 0))
                    emit(alternative, into: &code, backwards: backwards)
                    jumpsToEnd.append(code.count)
                    code.append(.jump(0))
                    code[split] = .split(split + 1, code.count)
                } else {
                    emit(alternative, into: &code, backwards: backwards)
                }
            }
            for jump in jumpsToEnd { code[jump] = .jump(code.count) }
        case .lookaround(let body, let behind, let negated):
            let program = program(for: body, backwards: behind)
            code.append(.lookaround(program: program, negated: negated))
        case .repetition(let body, let minimum, let maximum):
            for _ in 0..<minimum { emit(body, into: &code, backwards: backwards) }
            if let maximum {
                // Optional copies one after another: x{2,4} is x x x? x?, the same language
                // as the nested form and no bigger.
                for _ in minimum..<maximum {
                    let split = code.count
                    code.append(.split(split + 1, 0))
                    emit(body, into: &code, backwards: backwards)
                    code[split] = .split(split + 1, code.count)
                }
            } else {
                let split = code.count
                code.append(.split(split + 1, 0))
                emit(body, into: &code, backwards: backwards)
                code.append(.jump(split))
                code[split] = .split(split + 1, code.count)
            }
        }
    }
}
