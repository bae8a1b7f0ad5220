import HTTPServer
import Registry

/// Create with `"ifExists": "returnExisting"`: a CI run that publishes the schema it built
/// gets the newest live version back when that version already has identical content (see
/// `CanonicalJSON`, answered with `"existing": true`), and publishes only when something
/// changed (`"existing": false`). The store decides under the type's lock, so two identical
/// runs at once create one version.
enum PublishIfChanged {
    static let ifExists = FieldName("ifExists", "if_exists")

    /// Whether the body asks for find-or-create; any value but `returnExisting` is a 400.
    static func returnsExisting(_ body: BodyFields) throws(RegistryError) -> Bool {
        guard let value = try body.string(ifExists) else { return false }
        guard value == "returnExisting" else {
            throw .invalidArgument("ifExists: must be \"returnExisting\", not \(JSONWriter.string(.string(value)))")
        }
        return true
    }
}
