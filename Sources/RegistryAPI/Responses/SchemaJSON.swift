import Registry

/// Renders stored versions with the proto (snake_case) field names. `updated` equals
/// `created`: the content is immutable; only `state` (with its `deprecation` or `disabled`
/// details), `labels` and `release_notes` change.
enum SchemaJSON {
    static func object(_ schema: SchemaVersion) -> JSONValue {
        var object: JSONObject = [
            "application": .string(schema.applicationCode),
            "attributes_type": .string(schema.attributesType),
            "version": .number(String(schema.version)),
            "json_schema": .string(schema.jsonSchema),
            "created": .string(schema.created),
            "updated": .string(schema.created),
        ]
        if let createdBy = schema.createdBy { object["created_by"] = .string(createdBy) }
        object.members += stateMembers(schema.state).members
        object.members += described(schema).members
        return .object(object)
    }

    /// `state`, and the details of a deprecated or disabled one.
    static func stateMembers(_ state: VersionState) -> JSONObject {
        var members: JSONObject = ["state": .string(state.name)]
        switch state {
        case .active:
            break
        case .deprecated(let deprecation):
            var details: JSONObject = ["message": .string(deprecation.message)]
            if let sunset = deprecation.sunset { details["sunset"] = .string(sunset) }
            details["at"] = .string(deprecation.at)
            details["by"] = .string(deprecation.by)
            members["deprecation"] = .object(details)
        case .disabled(let disablement):
            members["disabled"] = ["reason": .string(disablement.reason), "at": .string(disablement.at), "by": .string(disablement.by)]
        }
        return members
    }

    /// What a version shows beyond its content, each only when set: `labels`, `release_notes`,
    /// and the `warnings` its publish answered.
    static func described(_ schema: SchemaVersion) -> JSONObject {
        var object = JSONObject()
        if !schema.metadata.labels.isEmpty { object["labels"] = .object(schema.metadata.labels) }
        if !schema.metadata.releaseNotes.isEmpty { object["release_notes"] = .string(schema.metadata.releaseNotes) }
        if !schema.warnings.isEmpty { object["warnings"] = .array(schema.warnings) }
        return object
    }

    /// `described` as bytes, or nil when the version shows nothing beyond its content: the part
    /// of a rendered version that can change after publishing, which its `ETag` must cover.
    static func describedBytes(_ schema: SchemaVersion) -> [UInt8]? {
        let object = described(schema)
        return object.isEmpty ? nil : JSONWriter.bytes(.object(object))
    }

    /// The same object written straight into `out`, for GET and list: the schema text is most
    /// of every body, and going through a value tree cost a copy of it and the time to build.
    static func write(_ schema: SchemaVersion, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"application":"#.utf8)
        JSONWriter.writeString(schema.applicationCode, into: &out)
        out.append(contentsOf: #","attributes_type":"#.utf8)
        JSONWriter.writeString(schema.attributesType, into: &out)
        out.append(contentsOf: #","version":"#.utf8)
        out.append(contentsOf: String(schema.version).utf8)
        out.append(contentsOf: #","json_schema":"#.utf8)
        JSONWriter.writeString(schema.jsonSchema, into: &out)
        out.append(contentsOf: #","created":"#.utf8)
        JSONWriter.writeString(schema.created, into: &out)
        out.append(contentsOf: #","updated":"#.utf8)
        JSONWriter.writeString(schema.created, into: &out)
        if let createdBy = schema.createdBy {
            out.append(contentsOf: #","created_by":"#.utf8)
            JSONWriter.writeString(createdBy, into: &out)
        }
        writeMembers(stateMembers(schema.state).members + described(schema).members, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Each member as `,"key":value`, after the members an object written by hand already has.
    static func writeMembers(_ members: [(key: String, value: JSONValue)], into out: inout [UInt8]) {
        for member in members {
            out.append(UInt8(ascii: ","))
            JSONWriter.writeString(member.key, into: &out)
            out.append(UInt8(ascii: ":"))
            JSONWriter.write(member.value, into: &out)
        }
    }

    /// `{"schema":{…}}` and a newline: the body of Get.
    static func getBody(_ schema: SchemaVersion) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(schema.jsonSchema.utf8.count + schema.jsonSchema.utf8.count / 8 + 256)
        out.append(contentsOf: #"{"schema":"#.utf8)
        write(schema, into: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// `{"schemas":[…]}` with `next_page_token` when there is one, and a newline: the body of List.
    static func listBody(_ schemas: [SchemaVersion], nextPageToken: String?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(schemas.reduce(64) { $0 + $1.jsonSchema.utf8.count + $1.jsonSchema.utf8.count / 8 + 256 })
        out.append(contentsOf: #"{"schemas":["#.utf8)
        for (index, schema) in schemas.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            write(schema, into: &out)
        }
        out.append(UInt8(ascii: "]"))
        if let nextPageToken {
            out.append(contentsOf: #","next_page_token":"#.utf8)
            JSONWriter.writeString(nextPageToken, into: &out)
        }
        out.append(contentsOf: "}\n".utf8)
        return out
    }
}

extension SchemaDocumentCache {
    /// A stored version's document, compiled once per text and kept by its content hash. It
    /// passed the shape rules when published, so a failure now means damaged data: a 500, not
    /// the caller's 400.
    func document(of version: SchemaVersion) throws(RegistryError) -> SchemaDocument {
        do {
            return try document(version.jsonSchema, contentHash: version.contentHashOrComputed)
        } catch {
            throw .internal("stored schema no longer passes the schema rules")
        }
    }
}
