/// Writes the form object straight into a response body: the address, then the content and
/// attributes sections with, per section, the worst-case payload size when the schema bounds
/// it, so a journey author sees how close a push can come to APNs' size limit.
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
        var fields = FieldsWriter()
        // The fields are nearly all of the form: measured first, the buffer grows once.
        let fieldBytes = fields.byteCount(of: outline.content, under: FormOutline.contentPath)
            + (outline.attributes.map { fields.byteCount(of: $0, under: FormOutline.attributesPath) } ?? 0)
        out.reserveCapacity(out.count + fieldBytes + 6 * (application.utf8.count + attributesType.utf8.count) + 256)
        out.append(literal: #"{"application":"#)
        JSONWriter.writeString(application, into: &out)
        out.append(literal: #","attributes_type":"#)
        JSONWriter.writeString(attributesType, into: &out)
        if let version {
            out.append(literal: #","version":"#)
            out.append(contentsOf: String(version).utf8)
        }
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
///
/// A field's JSON is its own keys, its shape's keys and nested fields, and one copy of its
/// path per field at or below it; so a shape's size, measured once, holds for every use.
private struct FieldsWriter {
    private var path: [UInt8] = []
    /// The keys of every shape, each written once, one after the other.
    private var keys: [UInt8] = []

    /// The bytes `write(_:under:into:)` appends for `uses`.
    mutating func byteCount(of uses: [FieldUse], under sectionPath: String) -> Int {
        let (bytes, fields) = measure(uses)
        return bytes + fields * JSONWriter.escapedCount(of: sectionPath)
    }

    mutating func write(_ uses: [FieldUse], under sectionPath: String, into out: inout [UInt8]) {
        path.removeAll(keepingCapacity: true)
        JSONWriter.writeEscaped(sectionPath, into: &path)
        let start = out.count
        writeList(uses, into: &out)
        assert(out.count - start == byteCount(of: uses, under: sectionPath), "the fields were measured wrong")
    }

    /// `[field, …]` under a path of no bytes, and the fields in it, at any depth.
    private mutating func measure(_ uses: [FieldUse]) -> (bytes: Int, fields: Int) {
        var bytes = 2 + max(uses.count - 1, 0)
        var fields = 0
        for use in uses {
            let name = JSONWriter.escapedCount(of: use.name)
            let (useBytes, useFields) = measure(use, escapedName: name)
            bytes += useBytes + useFields * (1 + name)
            fields += useFields
        }
        return (bytes, fields)
    }

    /// One field under a path of no bytes, and the fields at or below it.
    private mutating func measure(_ use: FieldUse, escapedName: Int) -> (bytes: Int, fields: Int) {
        let shape = written(use.shape)
        let own =
            #"{"name":"","path":"","label":"",}"#.utf8.count + escapedName + JSONWriter.escapedCount(of: use.label)
            + (use.isRequired ? #""required":true"# : #""required":false"#).utf8.count
            + (use.isNeededByApp ? #","needed_by_app":true"#.utf8.count : 0)
        return (own + shape.bytes, 1 + shape.fieldsBelow)
    }

    /// The shape's keys, written once, and its size.
    private mutating func written(_ shape: FieldShape) -> WrittenShape {
        if let written = shape.written { return written }
        let start = keys.count
        let requiredOffset = shape.writeKeys(into: &keys)
        let ownKeys = start..<keys.count
        var bytes = ownKeys.count
        var fieldsBelow = 0
        switch shape.children {
        case .none:
            break
        case .fields(let uses):
            let (listBytes, listFields) = measure(uses)
            bytes += #","fields":"#.utf8.count + listBytes
            fieldsBelow = listFields
        case .item(let item):
            let (itemBytes, itemFields) = measure(item, escapedName: JSONWriter.escapedCount(of: item.name))
            bytes += #","item":"#.utf8.count + itemBytes + itemFields * "[]".utf8.count
            fieldsBelow = itemFields
        case .cases(let cases):
            bytes += #","cases":[]"#.utf8.count + max(cases.count - 1, 0)
            for choice in cases {
                let key = JSONWriter.escapedCount(of: choice.name)
                let (listBytes, listFields) = measure(choice.shape.fields)
                bytes += #"{"key":"","label":"","fields":}"#.utf8.count + key + JSONWriter.escapedCount(of: choice.label)
                    + listBytes + listFields * (1 + key)
                fieldsBelow += listFields
            }
        }
        let written = WrittenShape(keys: ownKeys, requiredOffset: requiredOffset, bytes: bytes, fieldsBelow: fieldsBelow)
        shape.written = written
        return written
    }

    /// `[field, …]`, each path extended by `.` and the field's name.
    private mutating func writeList(_ uses: [FieldUse], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        let parentLength = path.count
        for (i, use) in uses.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            path.append(UInt8(ascii: "."))
            JSONWriter.writeEscaped(use.name, into: &path)
            write(use, escapedName: parentLength + 1..<path.count, into: &out)
            path.removeSubrange(parentLength...)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `,"cases":[{"key": …, "label": …, "fields": […]}, …]`, each case's fields under the
    /// current path extended by `.` and the case's key, where the value holds them.
    private mutating func writeCases(_ cases: [FieldUse], into out: inout [UInt8]) {
        out.append(literal: #","cases":["#)
        let parentLength = path.count
        for (i, choice) in cases.enumerated() {
            out.append(literal: i == 0 ? #"{"key":"# : #",{"key":"#)
            JSONWriter.writeString(choice.name, into: &out)
            out.append(literal: #","label":"#)
            JSONWriter.writeString(choice.label, into: &out)
            out.append(literal: #","fields":"#)
            path.append(UInt8(ascii: "."))
            JSONWriter.writeEscaped(choice.name, into: &path)
            writeList(choice.shape.fields, into: &out)
            path.removeSubrange(parentLength...)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
    }

    /// One field at the current path. `escapedName` is where the path ends with the field's
    /// name, escaped already; nil for a list's item, whose path ends in `[]`.
    private mutating func write(_ use: FieldUse, escapedName: Range<Int>?, into out: inout [UInt8]) {
        let shape = written(use.shape)
        out.append(literal: #"{"name":""#)
        path.withUnsafeBufferPointer { path in
            if let escapedName {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: path[escapedName]))
            } else {
                JSONWriter.writeEscaped(use.name, into: &out)
            }
            out.append(literal: #"","path":""#)
            out.append(contentsOf: path)
        }
        out.append(literal: #"","label":"#)
        JSONWriter.writeString(use.label, into: &out)
        keys.withUnsafeBufferPointer { keys in
            out.append(contentsOf: UnsafeBufferPointer(rebasing: keys[shape.keys.lowerBound..<shape.requiredOffset]))
            out.append(literal: use.isRequired ? #","required":true"# : #","required":false"#)
            if use.isNeededByApp { out.append(literal: #","needed_by_app":true"#) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: keys[shape.requiredOffset..<shape.keys.upperBound]))
        }
        switch use.shape.children {
        case .none:
            break
        case .fields(let uses):
            out.append(literal: #","fields":"#)
            writeList(uses, into: &out)
        case .item(let item):
            out.append(literal: #","item":"#)
            let parentLength = path.count
            path.append(literal: "[]")
            write(item, escapedName: nil, into: &out)
            path.removeSubrange(parentLength...)
        case .cases(let cases):
            writeCases(cases, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }
}
