import HTTPServer
import Registry

/// `GET …/{attributesType}/{version}:diff?against=N`: what changed field by field from version
/// N (by default the previous live version) to this one, each change marked breaking or not by
/// the compatibility check.
enum DiffHandlers {
    static let against = FieldName("against")

    static func diff(_ call: Call) throws(RegistryError) -> HTTPResponse {
        let (application, attributesType, version) = try SchemaHandlers.versionAddress(call)
        let requested = try call.query.string(against).flatMap { text throws(RegistryError) -> Int32? in
            text.isEmpty ? nil : try VersionNumber.parse(text, field: "against")
        }
        let newer = try SchemaHandlers.found(
            call.store.run({ try $0.schema(application: application, attributesType: attributesType, version: version) }), attributesType, version)
        let earlier: SchemaVersion
        if let requested {
            earlier = try SchemaHandlers.found(
                call.store.run({ try $0.schema(application: application, attributesType: attributesType, version: requested) }),
                attributesType, requested)
        } else {
            // The list order is version descending within a type: the first live version after
            // this one is the previous live version.
            guard
                let previous = try call.store.run({ try $0.list(
                    application: application, attributesType: attributesType,
                    after: ListCursor(attributesType: attributesType, version: version), limit: 1
                ) }).first
            else {
                throw .notFound(
                    "attributesType \(JSONWriter.string(.string(attributesType))) has no live version before \(version) to compare with; pass against")
            }
            earlier = previous
        }
        let diff = SchemaDiff(from: try earlier.document(), oldVersion: earlier.version, to: try newer.document())
        return JSONResponse.make([
            "application": .string(application.code),
            "attributes_type": .string(attributesType),
            "version": .number(String(version)),
            "against": .number(String(earlier.version)),
            "compatible": .bool(diff.compatibility.isCompatible),
            "changes": .array(diff.changes.map(\.jsonValue)),
            "problems": .array(diff.compatibility.problems.map(\.jsonValue)),
        ])
    }
}
