import Registry

/// The body of a form response: `{"form": {…}}`, written by `FormWriter`.
enum FormJSON {
    /// The body bytes, one JSON text and a newline. `annotations` follow `form` in the same
    /// object (the dry run's compatibility and warnings).
    static func body(
        _ document: SchemaDocument, application: String, attributesType: String, version: Int32?,
        annotations: JSONObject = JSONObject()
    ) -> [UInt8] {
        var body = Array(#"{"form":"#.utf8)
        FormWriter.write(formOf: document, application: application, attributesType: attributesType, version: version, into: &body)
        SchemaJSON.writeMembers(annotations.members, into: &body)
        body.append(contentsOf: "}\n".utf8)
        return body
    }
}
