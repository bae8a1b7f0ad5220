/// Simulates the automaton over the text's scalars, all threads in step (a Pike VM without
/// captures): each position visits each instruction at most once (one step) and advances each thread
/// once (one step), so a search costs at most 2 × instructions × (scalars + 1) steps, whatever the pattern. Lookarounds are the exception: a
/// lookaround's answer at a position is computed once and remembered, but each answer may read
/// to the end of the text, so a pattern with one can cost up to scalars² steps; the budget
/// bounds it.
struct RegexMatcher {
    let programs: [RegexProgram]
    let sets: [RegexScalarSet]
    let text: [UInt32]
    var budget: Int
    /// Per lookaround program and position: 0 unknown, 1 matches, 2 does not.
    private var lookaroundAnswers: [[UInt8]]

    init(programs: [RegexProgram], sets: [RegexScalarSet], text: [UInt32], budget: Int) {
        self.programs = programs
        self.sets = sets
        self.text = text
        self.budget = budget
        lookaroundAnswers = Array(repeating: [], count: programs.count)
    }

    /// Whether program 0 matches starting anywhere; nil when the budget ran out.
    mutating func search() -> Bool? { run(0, from: 0, anchored: false) }

    private mutating func run(_ programIndex: Int, from start: Int, anchored: Bool) -> Bool? {
        let program = programs[programIndex]
        let count = program.instructions.count
        var current = ThreadList(capacity: count)
        var next = ThreadList(capacity: count)
        var position = start
        let step = program.backwards ? -1 : 1
        guard add(0, program, at: position, to: &current) else { return nil }
        while true {
            if current.containsMatch { return true }
            let hasInput = program.backwards ? position > 0 : position < text.count
            guard hasInput else { return false }
            let scalar = text[program.backwards ? position - 1 : position]
            let following = position + step
            next.clear()
            for pc in current.members {
                budget -= 1
                if consumes(program.instructions[pc], scalar) {
                    guard add(pc + 1, program, at: following, to: &next) else { return nil }
                }
            }
            if !anchored {
                guard add(0, program, at: following, to: &next) else { return nil }
            }
            if budget < 0 { return nil }
            swap(&current, &next)
            position = following
            if current.isEmpty, anchored { return false }
        }
    }

    private func consumes(_ instruction: RegexProgram.Instruction, _ scalar: UInt32) -> Bool {
        switch instruction {
        case .codePoint(let value): value == scalar
        case .set(let index): sets[index].contains(scalar)
        case .anyButLineTerminator: !RegexScalarSet.lineTerminators.contains(scalar)
        default: false
        }
    }

    /// Adds `pc` and everything reachable from it without reading text; false when the
    /// budget ran out.
    private mutating func add(_ pc: Int, _ program: RegexProgram, at position: Int, to list: inout ThreadList) -> Bool {
        var pending = [pc]
        while let pc = pending.popLast() {
            guard list.insert(pc) else { continue }
            budget -= 1
            if budget < 0 { return false }
            switch program.instructions[pc] {
            case .jump(let target):
                pending.append(target)
            case .split(let first, let second):
                pending.append(second)
                pending.append(first)
            case .assertion(let assertion):
                if holds(assertion, at: position) { pending.append(pc + 1) }
            case .lookaround(let index, let negated):
                guard let matches = lookaround(index, at: position) else { return false }
                if matches != negated { pending.append(pc + 1) }
            case .match:
                list.containsMatch = true
            case .codePoint, .set, .anyButLineTerminator:
                break
            }
        }
        return true
    }

    private mutating func lookaround(_ index: Int, at position: Int) -> Bool? {
        if lookaroundAnswers[index].isEmpty { lookaroundAnswers[index] = Array(repeating: 0, count: text.count + 1) }
        switch lookaroundAnswers[index][position] {
        case 1: return true
        case 2: return false
        default:
            guard let answer = run(index, from: position, anchored: true) else { return nil }
            lookaroundAnswers[index][position] = answer ? 1 : 2
            return answer
        }
    }

    private func holds(_ assertion: RegexAssertion, at position: Int) -> Bool {
        switch assertion {
        case .inputStart: return position == 0
        case .inputEnd: return position == text.count
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && RegexScalarSet.isWordCharacter(text[position - 1])
            let after = position < text.count && RegexScalarSet.isWordCharacter(text[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }
}

/// The threads at one position: a sparse set of instruction indexes, cleared in O(1).
private struct ThreadList {
    private var dense: [Int]
    private var sparse: [Int]
    private(set) var count = 0
    var containsMatch = false

    init(capacity: Int) {
        dense = Array(repeating: 0, count: capacity)
        sparse = Array(repeating: 0, count: capacity)
    }

    var isEmpty: Bool { count == 0 }
    var members: ArraySlice<Int> { dense[0..<count] }

    mutating func insert(_ pc: Int) -> Bool {
        let slot = sparse[pc]
        if slot < count, dense[slot] == pc { return false }
        sparse[pc] = count
        dense[count] = pc
        count += 1
        return true
    }

    mutating func clear() {
        count = 0
        containsMatch = false
    }
}
