import Registry

/// Renders a form descriptor (forms.md) with its address in front and, per section, the
/// worst-case payload size when the schema bounds it (issue 8).
enum FormJSON {
    static func object(_ document: SchemaDocument, application: String, attributesType: String, version: Int32?) -> JSONValue {
        let form = FormBuilder.form(for: document).jsonObject
        var out: JSONObject = ["application": .string(application), "attributes_type": .string(attributesType)]
        if let version { out["version"] = .number(String(version)) }
        for member in form.members { out[member.key] = member.value }
        addMaxPayload(PayloadSizeEstimator.maxContentStateBytes(of: document), to: "content", in: &out)
        addMaxPayload(PayloadSizeEstimator.maxAttributesBytes(of: document), to: "attributes", in: &out)
        return .object(out)
    }

    private static func addMaxPayload(_ bytes: Int?, to section: String, in form: inout JSONObject) {
        guard let bytes, var object = form[section]?.objectValue else { return }
        object["max_payload_bytes"] = .number(String(bytes))
        form[section] = .object(object)
    }
}
