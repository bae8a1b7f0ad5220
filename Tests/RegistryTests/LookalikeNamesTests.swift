import Registry
import Testing

/// Names a person could take for another get a warning (never an error) saying why.
@Suite struct LookalikeNamesTests {
    /// A name and a phrase its concerns must contain, or nil when it raises none.
    static let cases: [(name: String, concern: String?)] = [
        ("FlightAttributes", nil),
        ("Caf\u{E9}", nil),
        ("\u{65E5}\u{672C}Flight", nil),
        ("\u{395}\u{3BB}\u{3BB}\u{3AC}\u{3B4}\u{3B1}", nil),
        ("Cafe\u{301}", "is not in Unicode NFC"),
        ("\u{212A}elvin", "is not in Unicode NFC"),
        ("Fl\u{200B}ight", "contains the invisible character U+200B"),
        ("\u{FF26}light", #"contains compatibility characters such as full-width letters (it reads as "Flight")"#),
        ("Fl\u{456}ght", "mixes Latin and Cyrillic letters"),
        ("\u{3BF}range", "mixes Latin and Greek letters"),
    ]

    @Test func eachLookAlikeIsNamedForWhatMakesIt() {
        var checked = 0
        for (name, concern) in Self.cases {
            let found = LookalikeNames.concerns(about: name)
            if let concern {
                #expect(found?.contains(concern) == true, "\(name): \(found ?? "no concern")")
            } else {
                #expect(found == nil, "\(name): \(found ?? "")")
            }
            checked += 1
        }
        #expect(checked == 10)
    }

    @Test func warningsCoverTheTypeNameAndEveryPropertyKeyOfAValidSchema() throws {
        let document = try SchemaRules.validate(
            #"""
            {"type":"object","properties":{"gate":{},"Cafe\u0301":{"type":"object","properties":{"Fl\u200bight":{}}}},
             "$defs":{"Leg":{"properties":{"\uff26light":{}}}},
             "attributes":{"properties":{"Fl\u0456ght":{}}}}
            """#)
        let warnings = LookalikeNames.warnings(attributesType: "Cafe\u{301}", document: document)
        #expect(
            warnings.map { ExactName($0.path) } == [
                "attributesType", "jsonSchema.properties[\"Cafe\u{301}\"]",
                "jsonSchema.properties[\"Cafe\u{301}\"].properties[\"Fl\u{200B}ight\"]",
                "jsonSchema.$defs.Leg.properties.\u{FF26}light", "jsonSchema.attributes.properties.Fl\u{456}ght",
            ].map(ExactName.init))
        #expect(warnings.first?.message.hasPrefix("\"Cafe\u{301}\" is not in Unicode NFC") == true)
    }

    @Test func warningsPastTheLimitAreCountedInOne() throws {
        let keys = (0..<30).map { #""k\#($0)e\u0301":{}"# }.joined(separator: ",")
        let document = try SchemaRules.validate(#"{"type":"object","properties":{"# + keys + "}}")
        let warnings = LookalikeNames.warnings(attributesType: "Plain", document: document)
        #expect(warnings.count == LookalikeNames.maxListed + 1)
        #expect(warnings.last?.message == "10 more names may be mistaken for others")
    }
}
