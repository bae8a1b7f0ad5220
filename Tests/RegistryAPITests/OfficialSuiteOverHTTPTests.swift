import Registry
import Testing
import TestSupport

/// The official JSON-Schema-Test-Suite through the public API, as a journey builder meets it:
/// each group's schema published as the content field `v` of its own type
/// (`OfficialSuiteEmbedding`), each case's data sent to `:check` as `{"v": data}`, and the
/// answer's `valid` compared with the suite's. The domain tests run the same files through
/// `CompiledSchema` directly; this one proves publishing, storage, the compiled-schema cache,
/// the request parser and `PushValueChecker`'s device rules keep that verdict, for the mandatory
/// files of draft 2020-12 and of draft 7 (embedded in a document whose root `$schema` says so).
///
/// Groups that reference a document the registry would have to fetch must be refused at
/// publish with a 400 naming the reference; every other group must publish and every one of
/// its cases agree, none skipped. The device's own rules change no case: the suite's numbers
/// all fit a `Double` (even `optional/float-overflow`'s 1e308), its schemas have no root
/// `required` and no `x-swift-type`, and `v` is a declared field. The test counts what it
/// checked and fails when fewer cases ran than the files hold.
@Suite struct OfficialSuiteOverHTTPTests {
    /// What each folder's mandatory files hold: files, cases, and the fewest cases that must
    /// be checked (the rest refused as remote).
    static let expected: [ExactName: (files: Int, cases: Int, minimumChecked: Int)] = [
        ExactName("draft2020-12"): (46, 1_299, 1_200),
        ExactName("draft7"): (37, 927, 880),
    ]
    /// The `$schema` values that name a dialect the registry compiles, not a remote document.
    static let dialectURIs = ["https://json-schema.org/draft/2020-12/schema", OfficialSuiteEmbedding.draft7URI]

    /// Groups whose schema needs a document outside itself (a remote `$ref`, or a metaschema
    /// as `$schema`), by file and group description: the registry never fetches, so publishing
    /// them is a 400 naming the reference.
    static let remoteGroups: [ExactName: [(file: String, group: String)]] = [
        ExactName("draft2020-12"): remote2020,
        ExactName("draft7"): remote7,
    ]

    static let remote2020: [(file: String, group: String)] = [
        ("defs.json", "validate definition against metaschema"),
        ("dynamicRef.json", "strict-tree schema, guards against misspelled properties"),
        ("dynamicRef.json", "tests for implementation dynamic anchor and reference link"),
        ("dynamicRef.json", "$ref and $dynamicAnchor are independent of order - $defs first"),
        ("dynamicRef.json", "$ref and $dynamicAnchor are independent of order - $ref first"),
        ("dynamicRef.json", "$ref to $dynamicRef finds detached $dynamicAnchor"),
        ("ref.json", "remote ref, containing refs itself"),
        ("refRemote.json", "remote ref"),
        ("refRemote.json", "fragment within remote ref"),
        ("refRemote.json", "anchor within remote ref"),
        ("refRemote.json", "ref within remote ref"),
        ("refRemote.json", "base URI change"),
        ("refRemote.json", "base URI change - change folder"),
        ("refRemote.json", "base URI change - change folder in subschema"),
        ("refRemote.json", "root ref in remote ref"),
        ("refRemote.json", "remote ref with ref to defs"),
        ("refRemote.json", "Location-independent identifier in remote ref"),
        ("refRemote.json", "retrieved nested refs resolve relative to their URI not $id"),
        ("refRemote.json", "remote HTTP ref with different $id"),
        ("refRemote.json", "remote HTTP ref with different URN $id"),
        ("refRemote.json", "remote HTTP ref with nested absolute ref"),
        ("refRemote.json", "$ref to $ref finds detached $anchor"),
        ("vocabulary.json", "schema that uses custom metaschema with with no validation vocabulary"),
        ("vocabulary.json", "ignore unrecognized optional vocabulary"),
    ]

    static let remote7: [(file: String, group: String)] = [
        ("definitions.json", "validate definition against metaschema"),
        ("ref.json", "remote ref, containing refs itself"),
        ("refRemote.json", "remote ref"),
        ("refRemote.json", "fragment within remote ref"),
        ("refRemote.json", "ref within remote ref"),
        ("refRemote.json", "base URI change"),
        ("refRemote.json", "base URI change - change folder"),
        ("refRemote.json", "base URI change - change folder in subschema"),
        ("refRemote.json", "root ref in remote ref"),
        ("refRemote.json", "remote ref with ref to definitions"),
        ("refRemote.json", "Location-independent identifier in remote ref"),
        ("refRemote.json", "retrieved nested refs resolve relative to their URI not $id"),
        ("refRemote.json", "$ref to $ref finds location-independent $id"),
    ]

    struct Tally {
        var files = 0
        var groups = 0
        var cases = 0
        var publishedGroups = 0
        var refusedGroups = 0
        var refusedCases = 0
        var checked = 0
        var agreed = 0
        var disagreements: [String] = []

        mutating func add(_ other: Tally) {
            files += other.files
            groups += other.groups
            cases += other.cases
            publishedGroups += other.publishedGroups
            refusedGroups += other.refusedGroups
            refusedCases += other.refusedCases
            checked += other.checked
            agreed += other.agreed
            disagreements += other.disagreements
        }

        func summary(_ title: String) -> String {
            "JSON-Schema-Test-Suite over HTTP, \(title): \(files) files, \(groups) groups, \(cases) cases; \(publishedGroups) groups published, \(refusedGroups) refused as remote (\(refusedCases) cases); \(checked) cases checked, \(agreed) agree, \(disagreements.count) disagree"
        }
    }

    @Test(arguments: ["draft2020-12", "draft7"]) func mandatoryCasesAgreeOverHTTP(folder: String) throws {
        let expected = try #require(Self.expected[ExactName(folder)])
        let remoteGroups = try #require(Self.remoteGroups[ExactName(folder)])
        let files = try OfficialSuiteFile.folder(folder).map(OfficialSuiteFile.init)
        let tally = try run(files, draft7: folder.hasSameBytes(as: "draft7"), remoteGroups: remoteGroups)
        print(tally.summary("\(folder) mandatory"))
        #expect(tally.files >= expected.files)
        #expect(tally.cases == expected.cases, "cases held by tests/\(folder)/*.json")
        #expect(tally.checked + tally.refusedCases == tally.cases)
        #expect(tally.checked >= expected.minimumChecked)
        #expect(tally.refusedGroups == remoteGroups.count)
        #expect(tally.agreed == tally.checked)
        #expect(tally.disagreements.isEmpty, "\n\(tally.disagreements.joined(separator: "\n"))")
    }

    /// Big numbers, ECMA-262 regular expressions, and every format file with assertion opted in
    /// (the registry's root keyword `x-assert-formats`).
    @Test(arguments: ["draft2020-12", "draft7"]) func optionalCasesOverHTTP(folder: String) throws {
        let plain = try ["bignum", "float-overflow", "ecmascript-regex"].map { try OfficialSuiteFile("\(folder)/optional/\($0).json") }
        let formats = try OfficialSuiteFile.folder("\(folder)/optional/format").map(OfficialSuiteFile.init)
        #expect(formats.count >= 18)
        let draft7 = folder.hasSameBytes(as: "draft7")
        var tally = try run(plain, draft7: draft7, remoteGroups: [])
        tally.add(try run(formats, draft7: draft7, assertFormats: true, remoteGroups: []))
        print(tally.summary("\(folder) optional (bignum, float-overflow, ecmascript-regex, format asserted)"))
        let cases = (plain + formats).reduce(0) { $0 + $1.caseCount }
        #expect(tally.cases == cases)
        #expect(tally.checked == cases, "no optional group needs a remote document")
        #expect(tally.agreed == tally.checked)
        #expect(tally.disagreements.isEmpty, "\n\(tally.disagreements.joined(separator: "\n"))")
    }

    /// Publishes every group of `files` (one type each), then checks every case of the
    /// published ones.
    private func run(
        _ files: [OfficialSuiteFile], draft7: Bool, assertFormats: Bool = false, remoteGroups: [(file: String, group: String)]
    ) throws -> Tally {
        let session = TenantSession(try TestRegistry.shared().makeTenant())
        var tally = Tally(files: files.count)
        var published: [(type: String, file: String, group: OfficialSuiteFile.Group)] = []
        for file in files {
            for (index, group) in file.groups.enumerated() {
                tally.groups += 1
                tally.cases += group.cases.count
                let type = Self.typeName(file: file.name, index: index)
                let schema = OfficialSuiteEmbedding.embed(group.schema, draft7: draft7, assertFormats: assertFormats)
                if try publish(group, schema: schema, as: type, file: file.name, remoteGroups: remoteGroups, session: session, tally: &tally) {
                    published.append((type, file.name, group))
                }
            }
        }
        for (type, file, group) in published {
            for testCase in group.cases {
                try check(testCase, of: group, file: file, type: type, session: session, tally: &tally)
            }
        }
        return tally
    }

    // MARK: - Publishing

    /// Publishes the group's embedded schema; true when it was published. A refusal must be of
    /// a listed remote group and name one of its references.
    private func publish(
        _ group: OfficialSuiteFile.Group, schema embedded: JSONValue, as type: String, file: String,
        remoteGroups: [(file: String, group: String)], session: TenantSession, tally: inout Tally
    ) throws -> Bool {
        let schema = JSONWriter.string(embedded)
        let response = try session.post(
            [
                "application": .string(session.tenant.code), "attributesType": .string(type), "jsonSchema": .string(schema),
                "version": 1,
            ], path: "/api/live_activity_schemas")
        let label = "\(file) «\(group.description)»"
        let isRemote = remoteGroups.contains { Self.names($0.file, $0.group, file, group.description) }
        switch response.status {
        case 200, 201:
            tally.publishedGroups += 1
            if isRemote { tally.disagreements.append("\(label): published, but it needs a remote document: \(schema)") }
            return true
        case 400:
            tally.refusedGroups += 1
            tally.refusedCases += group.cases.count
            let message = try response.json()["message"]?.stringValue ?? ""
            if !isRemote {
                tally.disagreements.append("\(label): refused at publish: \(message); schema \(schema)")
            } else if !Self.externalReferences(in: group.schema).contains(where: { message.contains($0) })
                || !Self.namesReferenceKeyword(message)
            {
                tally.disagreements.append("\(label): refused, but the message names none of its remote references: \(message)")
            }
            return false
        default:
            tally.disagreements.append("\(label): publish answered \(response.status): \(response.bodyText)")
            tally.refusedCases += group.cases.count
            return false
        }
    }

    // MARK: - Checking

    private func check(
        _ testCase: OfficialSuiteFile.Case, of group: OfficialSuiteFile.Group, file: String, type: String,
        session: TenantSession, tally: inout Tally
    ) throws {
        tally.checked += 1
        let response = try session.post(
            [
                "application": .string(session.tenant.code), "event": "update",
                "content_state": .object(JSONObject([(key: OfficialSuiteEmbedding.field, value: testCase.data)])),
            ], path: "/api/live_activity_schemas/\(type)/1:check")
        let label = "\(file) «\(group.description)» «\(testCase.description)»"
        let body = try response.json()
        guard response.status == 200, let valid = body["valid"]?.boolValue else {
            tally.disagreements.append("\(label): :check answered \(response.status): \(response.bodyText)")
            return
        }
        if valid == testCase.valid {
            tally.agreed += 1
            return
        }
        tally.disagreements.append(
            "\(label): schema \(JSONWriter.string(group.schema)), data \(JSONWriter.string(testCase.data)): expected \(testCase.valid ? "valid" : "invalid"), got \(valid ? "valid" : "invalid"); problems \(JSONWriter.string(body["problems"] ?? .null))"
        )
    }

    // MARK: - Names

    /// One type per group, named after its file and position (`Suite_if_then_else_3`).
    static func typeName(file: String, index: Int) -> String {
        let stem = file.split(separator: "/").last.map { $0.dropLast(".json".count) } ?? ""
        let identifier = String(String.UnicodeScalarView(stem.unicodeScalars.map { $0.properties.isAlphabetic || ("0"..."9").contains($0) ? $0 : "_" }))
        return "Suite_\(identifier)_\(index)"
    }

    private static func names(_ listedFile: String, _ listedGroup: String, _ file: String, _ group: String) -> Bool {
        file.hasByteSuffix("/" + listedFile) && listedGroup.hasSameBytes(as: group)
    }

    /// Whether a refusal starts with the path of a reference keyword inside `v`
    /// (`jsonSchema.properties.v.allOf[0].$ref: …`).
    static func namesReferenceKeyword(_ message: String) -> Bool {
        guard message.hasBytePrefix("jsonSchema.properties.\(OfficialSuiteEmbedding.field)"),
            let colon = message.unicodeScalars.firstIndex(of: ":")
        else { return false }
        let path = String(message.unicodeScalars[..<colon])
        return [".$ref", ".$dynamicRef", ".$schema"].contains { path.hasByteSuffix($0) }
    }

    /// The references of `schema` that are not fragments of the document (`$ref` and
    /// `$dynamicRef` values not starting with `#`, `$schema` values that name no dialect the
    /// registry compiles), as written.
    static func externalReferences(in schema: JSONValue) -> [String] {
        switch schema {
        case .object(let object):
            return object.members.flatMap { member -> [String] in
                var found: [String] = []
                if ["$ref", "$dynamicRef", "$schema"].containsExactly(member.key), case .string(let uri) = member.value,
                    !uri.hasBytePrefix("#"), !(member.key.hasSameBytes(as: "$schema") && Self.dialectURIs.containsExactly(uri))
                {
                    found.append(uri)
                }
                return found + externalReferences(in: member.value)
            }
        case .array(let items):
            return items.flatMap(externalReferences(in:))
        default:
            return []
        }
    }
}
