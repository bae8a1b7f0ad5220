/// Merges the object schemas of an `allOf` into one object: the union of their properties, in
/// the order met (branches first, then the schema beside `allOf`), and of their required names.
///
/// A value is valid under `allOf` when it is valid under every branch, so the merge is exact
/// only when every branch speaks of an object's properties and nothing else: a property two
/// branches give different schemas would need both at once, and any other keyword (a type that
/// is not `object`, `enum`, `additionalProperties`, a length, …) constrains the value in a way
/// one object of fields cannot show. Those are conflicts, and the field falls back to a raw
/// JSON editor with the conflict as its reason.
enum AllOfMerge {
    /// One schema taking part, its references followed.
    struct Part {
        let schema: FieldSchema
        /// How a reason names it: `branch 2`, `the schema beside it`.
        let name: String
    }

    enum Outcome {
        /// `{"type":"object","properties":{…},"required":[…]}`.
        case merged(JSONObject)
        case conflict(String)
    }

    /// Why `schema` cannot take part in a merge of object properties; nil when it can.
    static func problem(ofPart schema: FieldSchema, named name: String) -> String? {
        if let type = schema.type, type != .string("object") {
            return "allOf merges object properties, but \(name) has type \(JSONWriter.string(type))"
        }
        if let keyword = schema.unmergeableKeyword {
            return "allOf merges object properties, but \(name) uses \(keyword), which the merged object cannot express"
        }
        return nil
    }

    static func merge(_ parts: [Part]) -> Outcome {
        var properties: [(key: String, value: JSONValue)] = []
        var positions: [ExactName: Int] = [:]
        var required: [JSONValue] = []
        var requiredNames: Set<ExactName> = []
        for part in parts {
            if let reason = problem(ofPart: part.schema, named: part.name) { return .conflict(reason) }
            switch part.schema.properties {
            case nil:
                break
            case .object(let object)?:
                for member in object.members {
                    guard let position = positions[ExactName(member.key)] else {
                        positions[ExactName(member.key)] = properties.count
                        properties.append(member)
                        continue
                    }
                    guard properties[position].value == member.value else {
                        return .conflict("allOf gives property \(ClientText.quoted(member.key)) different schemas in \(part.name) and before it")
                    }
                }
            case _?:
                return .conflict("allOf merges object properties, but the properties of \(part.name) are not an object")
            }
            switch part.schema.required {
            case nil:
                break
            case .array(let names)?:
                for name in names {
                    guard case .string(let text) = name else {
                        return .conflict("allOf merges required names, but \(part.name) requires \(JSONWriter.string(name))")
                    }
                    if requiredNames.insert(ExactName(text)).inserted { required.append(name) }
                }
            case _?:
                return .conflict("allOf merges required names, but the required of \(part.name) is not a list")
            }
        }
        return .merged(["type": "object", "properties": .object(JSONObject(properties)), "required": .array(required)])
    }
}
