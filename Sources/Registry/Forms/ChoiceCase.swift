/// One case of an enum with associated values, as Swift's synthesized `Codable` writes it and
/// `schema-from-swift` describes it: `{"caseName": {…associated values…}}`, the branch
/// `{"type":"object","properties":{"caseName":{…}},"required":["caseName"],"additionalProperties":false}`.
struct ChoiceCase {
    /// The case's name: the one key of the value.
    let key: String
    /// The schema of the object under the key, described as the case's fields.
    let payload: JSONValue
    /// The branch's non-empty `title`, which names the case before the payload's or the key.
    let title: String?

    /// The cases of a `oneOf`/`anyOf` list when every branch is exactly such a case and no two
    /// share a key (by bytes); nil for any other list.
    ///
    /// The rule is exact because only then does a value hold one case key and nothing else,
    /// which is what the choice editor builds: a branch must say `"type": "object"`, have one
    /// property, require exactly that property, forbid any other with `"additionalProperties":
    /// false`, and hold nothing else but a `title` or `description`. Each key appears once in a
    /// branch. With distinct keys the branches exclude one another, so `anyOf` means `oneOf`.
    static func cases(in alternatives: JSONValue) -> [ChoiceCase]? {
        guard case .array(let branches) = alternatives, !branches.isEmpty else { return nil }
        var cases: [ChoiceCase] = []
        var keys: Set<ExactName> = []
        for branch in branches {
            guard case .object(let object) = branch, let found = ChoiceCase(branch: object),
                keys.insert(ExactName(found.key)).inserted
            else { return nil }
            cases.append(found)
        }
        return cases
    }

    private init?(branch: JSONObject) {
        var seen: Set<ExactName> = []
        for member in branch.members {
            guard Self.branchKeys.containsExactly(member.key), seen.insert(ExactName(member.key)).inserted else { return nil }
        }
        guard case .string(let type)? = branch["type"], type.hasSameBytes(as: "object"),
            branch["additionalProperties"] == .bool(false),
            case .object(let properties)? = branch["properties"], properties.count == 1,
            case .array(let required)? = branch["required"], required.count == 1,
            case .string(let key) = required[0], properties.members[0].key.hasSameBytes(as: key)
        else { return nil }
        self.key = key
        payload = properties.members[0].value
        title = branch["title"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    }

    private static let branchKeys = ["type", "properties", "required", "additionalProperties", "title", "description"]
}
