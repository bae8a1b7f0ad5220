/// Reads the push API's fields with their types, collecting a problem for each broken rule.
/// `null` reads as absent, as protobuf JSON (which the API's gateway speaks) treats it.
struct FieldReader {
    var problems: [PushProblem] = []

    /// An optional string; anything but a string or null is a problem.
    mutating func string(_ key: String, in object: JSONObject, path: String) -> String? {
        switch object.present(key) {
        case nil: return nil
        case .string(let text): return text
        case let other?:
            problems.append(.error(path, "must be a string, not \(other.typeName)"))
            return nil
        }
    }

    /// A required, non-empty string.
    mutating func requiredString(_ key: String, in object: JSONObject, path: String) -> String? {
        guard object.present(key) != nil else {
            problems.append(.error(path, "is required"))
            return nil
        }
        guard let text = string(key, in: object, path: path) else { return nil }
        if text.isEmpty { problems.append(.error(path, "must not be empty")) }
        return text
    }

    /// A required object.
    mutating func requiredObject(_ key: String, in object: JSONObject, path: String) -> JSONObject? {
        switch object.present(key) {
        case nil:
            problems.append(.error(path, "is required"))
            return nil
        case .object(let value):
            return value
        case let other?:
            problems.append(.error(path, "must be an object, not \(other.typeName)"))
            return nil
        }
    }

    /// An optional integer (`3.0` counts, as in JSON Schema), at least `minimum` when given;
    /// returned as sent so the payload carries the sender's number.
    mutating func integer(_ key: String, in object: JSONObject, path: String, minimum: Int? = nil) -> JSONValue? {
        guard let value = object.present(key) else { return nil }
        guard value.isIntegral, let number = value.doubleValue else {
            problems.append(.error(path, "must be an integer, not \(value.numberOrTypeName)"))
            return nil
        }
        if let minimum, number < Double(minimum) {
            problems.append(.error(path, "must be at least \(minimum), not \(value.numberOrTypeName)"))
            return nil
        }
        return value
    }
}

extension JSONObject {
    /// The member named `key` unless it is absent or null.
    func present(_ key: String) -> JSONValue? {
        if let value = self[key], !value.isNull { value } else { nil }
    }
}

extension JSONValue {
    /// A number's lexeme, or the type name of anything else: enough to say what was sent
    /// without echoing a whole object.
    fileprivate var numberOrTypeName: String {
        if case .number(let lexeme) = self { lexeme } else { typeName }
    }
}
