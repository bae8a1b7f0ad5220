/// Writes the form object of forms.md straight into a response body: the address, then the
/// content and attributes sections with, per section, the worst-case payload size when the
/// schema bounds it (issue 8).
///
/// It writes bytes as it walks the outline, with no `JSONValue` tree in between, because a
/// form repeats each `$ref`'d definition once per use and can be several times the size of its
/// schema. Keys come in a fixed order (name, path, label, type, widget, required, then the
/// optional ones) so responses are stable byte for byte.
public enum FormWriter {
    /// Appends `{"application": …, "attributes_type": …, "version": …, "content": …,
    /// "attributes": …}` for `document`; `version` is left out when nil (a dry run).
    public static func write(
        formOf document: SchemaDocument, application: String, attributesType: String, version: Int32?,
        into out: inout [UInt8]
    ) {
        let outline = FormOutline(document)
        out.append(literal: #"{"application":"#)
        JSONWriter.writeString(application, into: &out)
        out.append(literal: #","attributes_type":"#)
        JSONWriter.writeString(attributesType, into: &out)
        if let version {
            out.append(literal: #","version":"#)
            out.append(contentsOf: String(version).utf8)
        }
        var fields = FieldsWriter()
        out.append(literal: #","content":{"mode":"fields","fields":"#)
        fields.write(outline.content, under: FormOutline.contentPath, into: &out)
        writeMaxPayload(PayloadSizeEstimator.maxContentStateBytes(of: document), into: &out)
        if let attributes = outline.attributes {
            out.append(literal: #"},"attributes":{"mode":"fields","fields":"#)
            fields.write(attributes, under: FormOutline.attributesPath, into: &out)
            writeMaxPayload(PayloadSizeEstimator.maxAttributesBytes(of: document), into: &out)
        } else {
            out.append(literal: #"},"attributes":{"mode":"free","fields":[]"#)
        }
        out.append(literal: "}}")
    }

    private static func writeMaxPayload(_ bytes: Int?, into out: inout [UInt8]) {
        guard let bytes else { return }
        out.append(literal: #","max_payload_bytes":"#)
        out.append(contentsOf: String(bytes).utf8)
    }
}

/// Writes fields, keeping the current field's path escaped in one buffer that grows by a name
/// on the way down and shrinks on the way back, so no path is built as a `String`.
private struct FieldsWriter {
    private var path: [UInt8] = []

    mutating func write(_ uses: [FieldUse], under sectionPath: String, into out: inout [UInt8]) {
        path.removeAll(keepingCapacity: true)
        JSONWriter.writeEscaped(sectionPath, into: &path)
        writeList(uses, into: &out)
    }

    /// `[field, …]`, each path extended by `.` and the field's name.
    private mutating func writeList(_ uses: [FieldUse], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        let parentLength = path.count
        for (i, use) in uses.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            path.append(UInt8(ascii: "."))
            JSONWriter.writeEscaped(use.name, into: &path)
            write(use, into: &out)
            path.removeSubrange(parentLength...)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// One field at the current path.
    private mutating func write(_ use: FieldUse, into out: inout [UInt8]) {
        let shape = use.shape
        out.append(literal: #"{"name":"#)
        JSONWriter.writeString(use.name, into: &out)
        out.append(literal: #","path":""#)
        out.append(contentsOf: path)
        out.append(literal: #"","label":"#)
        JSONWriter.writeString(use.label, into: &out)
        shape.writeKeys(isRequired: use.isRequired, into: &out)
        switch shape.children {
        case .none:
            break
        case .fields(let uses):
            out.append(literal: #","fields":"#)
            writeList(uses, into: &out)
        case .item(let item):
            out.append(literal: #","item":"#)
            let parentLength = path.count
            path.append(literal: "[]")
            write(item, into: &out)
            path.removeSubrange(parentLength...)
        }
        out.append(UInt8(ascii: "}"))
    }
}
