import Registry
import Testing

/// ECMA-262 semantics the suite does not cover, and the bound that makes patterns safe to run
/// on a request: steps grow linearly with the text, whatever the pattern.
@Suite struct ECMARegexTests {
    func matches(_ pattern: String, _ text: String) throws -> Bool {
        var budget = 10_000_000
        return try #require(try ECMARegex(pattern).search(text, budget: &budget))
    }

    func refuses(_ pattern: String) -> String? {
        do {
            _ = try ECMARegex(pattern)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func classEscapesAreASCIIWhereECMASaysSo() throws {
        #expect(try matches(#"^\W$"#, "é"))
        #expect(try !matches(#"^\w$"#, "é"))
        #expect(try !matches(#"^\d$"#, "\u{07C0}"))
        #expect(try matches(#"^\D$"#, "\u{07C0}"))
        #expect(try matches(#"^\s+$"#, "\u{A0}\u{FEFF}\u{2003}\u{2028}\n\t"))
        #expect(try !matches(#"^\s$"#, "\u{200B}"))
        #expect(try !matches(#"\bé"#, "é"), "é is not a word character: no boundary before it")
        #expect(try matches(#"a\bé"#, "aé"))
        #expect(try matches(#"^a\B"#, "ab"))
    }

    @Test func escapes() throws {
        #expect(try matches(#"^\t\n\v\f\r\0$"#, "\t\n\u{0B}\u{0C}\r\u{0}"))
        #expect(try matches(#"^\cJ\x41\u0042\u{1F432}\/$"#, "\nAB🐲/"))
        #expect(try matches(#"^\uD83D\uDC32$"#, "🐲"), "a surrogate pair written as two escapes is one code point")
        #expect(try matches(#"^[\b]$"#, "\u{08}"))
        #expect(try matches(#"^[\w-.]+$"#, "a-b.c"), "Annex B: a class escape beside '-' is a union, not a range")
        #expect(refuses(#"\a"#) != nil)
        #expect(refuses(#"\q"#) != nil)
    }

    @Test func dotAnchorsAndLineTerminators() throws {
        #expect(try !matches("^.$", "\n"))
        #expect(try !matches("^.$", "\u{2028}"))
        #expect(try matches("^.$", "🐲"), "the dot reads one scalar, not one UTF-16 unit")
        #expect(try !matches("^abc$", "abc\n"))
        #expect(try matches("b", "abc"), "search is unanchored")
    }

    @Test func classesAndQuantifiers() throws {
        #expect(try matches("^[^a-c]{2,3}$", "xyz"))
        #expect(try !matches("^[^a-c]{2,3}$", "xyzw"))
        #expect(try !matches("^[^a-c]{2,3}$", "xa"))
        #expect(try !matches("[]", "a"), "an empty class matches nothing")
        #expect(try matches("^[^]$", "\n"), "a negated empty class matches anything")
        #expect(try matches("^(?:ab|cd)+?$", "abcdab"))
        #expect(try matches("^(?<year>[0-9]{4})-x{0}$", "2024-"))
        #expect(try matches("^a{2,}$", "aaaa"))
        #expect(try matches("^{a}$", "{a}"), "Annex B: a brace that starts no quantifier is a literal")
        #expect(refuses("a{3,2}") != nil)
        #expect(refuses("*a") != nil)
        #expect(refuses("(a") != nil)
        #expect(refuses("a)") != nil)
        #expect(refuses("[z-a]") != nil)
    }

    @Test func unicodeProperties() throws {
        #expect(try matches(#"^\p{L}\p{Lu}\p{General_Category=Nd}\P{Letter}$"#, "éÉ৪!"))
        #expect(try matches(#"^[\p{Emoji}]$"#, "🐲"))
        #expect(try matches(#"^\p{White_Space}$"#, "\u{2003}"))
        #expect(refuses(#"\p{Script=Greek}"#)?.contains("scripts are not") == true)
        #expect(refuses(#"\p{NoSuchThing}"#) != nil)
    }

    @Test func lookaroundRunsWithinTheBudget() throws {
        #expect(try matches("^(?=.*[0-9])(?=.*[a-z]).{8,}$", "abcdefg1"))
        #expect(try !matches("^(?=.*[0-9])(?=.*[a-z]).{8,}$", "abcdefgh"))
        #expect(try matches("^(?!foo).*$", "bar"))
        #expect(try !matches("^(?!foo).*$", "foobar"))
        #expect(try matches("(?<=a+)b", "aab"))
        #expect(try !matches("(?<!a)b", "ab"))
        #expect(try matches("(?<=^x(?:ab)*)c", "xababc"))
    }

    @Test func backreferencesAreValidSyntaxButNotRun() {
        #expect(ECMARegex.isValidSyntax(#"(?<n>a)\k<n>"#))
        #expect(ECMARegex.isValidSyntax(#"(a)\1"#))
        #expect(!ECMARegex.isValidSyntax(#"(a)\2"#))
        #expect(!ECMARegex.isValidSyntax(#"\k<missing>(?<n>a)"#))
        #expect(refuses(#"(a)\1"#)?.contains("backreferences") == true)
    }

    @Test func countedRepetitionIsBounded() {
        #expect(refuses("(a|b){100000}")?.contains("instructions") == true)
        #expect(refuses("((a{100}){100}){100}") != nil)
        #expect(refuses("a{1,5000}") == nil)
    }

    /// The patterns that take a backtracking engine exponential time: each search of a
    /// 10,000-scalar text must take at most 2 × instructions × (scalars + 1) steps, and doubling
    /// the text at most doubles (plus a little) the steps.
    @Test(arguments: [#"^(a+)+$"#, #"(a|a)*b"#, #"(a*)*$"#, #"^(a|aa)+$"#, #"^(\w+\s?)*$"#])
    func evilPatternsCostLinearSteps(_ pattern: String) throws {
        let regex = try ECMARegex(pattern)
        func steps(_ count: Int) throws -> Int {
            let start = 100_000_000
            var budget = start
            let answer = regex.search(String(repeating: "a", count: count) + "!", budget: &budget)
            #expect(answer != nil)
            return start - budget
        }
        let short = try steps(10_000)
        let long = try steps(20_000)
        #expect(short <= 2 * regex.instructionCount * 10_002)
        #expect(long <= short * 2 + regex.instructionCount * 4)
    }

    /// A lookahead may read to the end at every position (scalars² steps): the budget ends it.
    @Test func aQuadraticLookaheadEndsInNilNotAStall() throws {
        let regex = try ECMARegex("(?=a*x)")
        var budget = 1_000_000
        #expect(regex.search(String(repeating: "a", count: 10_000), budget: &budget) == nil)
        var enough = 10_000_000
        #expect(regex.search(String(repeating: "a", count: 100) + "x", budget: &enough) == true)
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "(", count: 100) + "a" + String(repeating: ")", count: 100)
        #expect(refuses(deep) == nil)
        let deeper = String(repeating: "(?:", count: 101) + "a" + String(repeating: ")", count: 101)
        #expect(refuses(deeper)?.contains("nested") == true)
    }

    @Test func anExhaustedBudgetAnswersNil() throws {
        let regex = try ECMARegex(#"^(a+)+$"#)
        var budget = 100
        #expect(regex.search(String(repeating: "a", count: 1_000), budget: &budget) == nil)
        #expect(budget == 0)
    }
}
