// libFuzzer target over the pure Registry module: the JSON parser and writers, the schema
// rules, the form builder and its rendering, the payload-size bounds, Codable compatibility and
// the value checks a push preview runs.
//
// Not a package target: Tests/Fuzz/run.sh compiles this file together with the sources of
// Sources/Registry into one module (so there is no `import Registry`) with
// `swiftc -sanitize=fuzzer,address -parse-as-library`. A plain `swift build` never sees it.
//
// Input layout: up to three parts separated by a line `@@@` ("\n@@@\n"):
//   1. a jsonSchema text (what Create receives),
//   2. optionally an earlier schema of the same type (compatibility is checked against it),
//   3. optionally a JSON object of values: {"content-state": {…}, "attributes": {…}} for the
//      value check and the push preview (without it the schema's own `default`s are used).
// A single part is also run through the parser with the default options (duplicates allowed).
//
// Besides "does not crash, leak or hang", it asserts properties that must hold for any input:
// whatever the parser accepts, the compact and the pretty writers produce text the parser reads
// back as the same value; a schema is compatible with itself; rendering a form is
// deterministic.

#if canImport(Glibc)
    import Glibc
#endif

private let separator: [UInt8] = Array("\n@@@\n".utf8)

private func split(_ bytes: [UInt8]) -> [[UInt8]] {
    var parts: [[UInt8]] = []
    var start = 0
    var index = 0
    while index + separator.count <= bytes.count, parts.count < 2 {
        if bytes[index..<index + separator.count].elementsEqual(separator) {
            parts.append(Array(bytes[start..<index]))
            index += separator.count
            start = index
        } else {
            index += 1
        }
    }
    parts.append(Array(bytes[start...]))
    return parts
}

/// Stops the run with a message libFuzzer records next to the crashing input.
private func violated(_ property: String, _ detail: @autoclosure () -> String = "") -> Never {
    let text = Array("fuzz property violated: \(property) \(detail())\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}

/// Parse → write → parse must give the same value, for both writers.
private func checkRoundTrip(_ value: JSONValue, options: JSONParser.Options) {
    let compact = JSONWriter.string(value)
    guard let again = try? JSONParser.parse(compact, options: .init(maxDepth: options.maxDepth + 1, rejectDuplicateKeys: false))
    else { violated("compact output does not parse again", String(compact.prefix(200))) }
    if again != value { violated("compact round trip changed the value", String(compact.prefix(200))) }
    let pretty = JSONPrettyWriter.string(value)
    guard let prettyAgain = try? JSONParser.parse(pretty, options: .init(maxDepth: options.maxDepth + 1, rejectDuplicateKeys: false))
    else { violated("pretty output does not parse again", String(pretty.prefix(200))) }
    if prettyAgain != value { violated("pretty round trip changed the value", String(pretty.prefix(200))) }
}

private func exerciseParser(_ bytes: [UInt8]) -> JSONValue? {
    let lenient = JSONParser.Options(maxDepth: 64, rejectDuplicateKeys: false)
    let strict = JSONParser.Options(maxDepth: 64, rejectDuplicateKeys: true)
    var parsed: JSONValue?
    if let value = try? JSONParser.parse(bytes, options: lenient) {
        checkRoundTrip(value, options: lenient)
        parsed = value
    }
    if let value = try? JSONParser.parse(bytes, options: strict) {
        if parsed == nil { violated("strict parse accepted what the lenient parse refused") }
        parsed = value
    }
    return parsed
}

/// The form object as GET …/form writes it.
private func formText(_ document: SchemaDocument) -> String {
    var out: [UInt8] = []
    FormWriter.write(formOf: document, application: "A", attributesType: "FuzzAttributes", version: 1, into: &out)
    return String(decoding: out, as: UTF8.self)
}

/// What Create and `:validate` do with a schema, and what GET …/form renders.
private func exerciseSchema(_ document: SchemaDocument, earlier: SchemaDocument?) {
    let rendered = formText(document)
    if formText(document) != rendered {
        violated("form rendering is not deterministic")
    }
    if (try? JSONParser.parse(rendered, options: .init(maxDepth: 100_000))) == nil {
        violated("rendered form is not valid JSON", String(rendered.prefix(200)))
    }
    _ = PayloadSizeEstimator.maxContentStateBytes(of: document)
    _ = PayloadSizeEstimator.maxAttributesBytes(of: document)
    _ = PayloadSizeEstimator.worstCaseStartPayloadBytes(of: document, attributesType: "FuzzAttributes")

    let itself = Compatibility.problems(from: document, oldVersion: 1, to: document)
    if !itself.isEmpty {
        violated("a schema is not compatible with itself", itself.map(\.message).joined(separator: "; "))
    }
    if let earlier {
        let outline = CompatibilityOutline(document: document)
        let report = Compatibility.review(
            outline, contentHash: [0], policy: .builtIn,
            newest: ComparedVersion(version: 2, contentHash: [2], outline: CompatibilityOutline(document: earlier)),
            earlier: [ComparedVersion(version: 1, contentHash: [1], outline: outline)], limitReached: false)
        _ = JSONWriter.string(report.jsonValue)
        _ = Compatibility.problems(from: document, oldVersion: 1, to: earlier)
    }
}

/// What `:check` and `:preview` do with values against a schema.
private func exerciseValues(_ document: SchemaDocument, values: JSONObject) {
    let content = values["content-state"]?.objectValue ?? values
    let attributes = values["attributes"]?.objectValue
    for event in [LiveActivityEvent.start, .update, .end] {
        let check = PushValueChecker.check(document, event: event, contentState: content, attributes: attributes)
        _ = JSONWriter.string(check.json)
    }
    var activity: JSONObject = ["content-state": .object(content), "attributes-type": "FuzzAttributes"]
    if let attributes { activity["attributes"] = .object(attributes) }
    let start: JSONObject = [
        "live_activity_id": "fuzz", "title": "Fuzz", "content": "body", "live_activity": .object(activity),
    ]
    _ = JSONWriter.string(
        LiveActivityPreview.preview(start, call: .start, bundleID: "com.example.fuzz", schema: document, now: 1_800_000_000).json)
    activity["event"] = "update"
    activity["attributes"] = nil
    let update: JSONObject = ["live_activity_id": "fuzz", "live_activity": .object(activity)]
    _ = JSONWriter.string(
        LiveActivityPreview.preview(update, call: .update, bundleID: "com.example.fuzz", schema: document, now: 1_800_000_000).json)
}

/// The schema's own `default`s as values, so inputs without a values part still reach the checker.
private func defaults(of document: SchemaDocument) -> JSONObject {
    var content = JSONObject()
    for member in document.contentProperties.members {
        if let value = member.value.objectValue?["default"] { content[member.key] = value }
    }
    var attributes = JSONObject()
    for member in (document.attributesProperties ?? JSONObject()).members {
        if let value = member.value.objectValue?["default"] { attributes[member.key] = value }
    }
    return ["content-state": .object(content), "attributes": .object(attributes)]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let parts = split(bytes)
    for part in parts { _ = exerciseParser(part) }

    // The API reads jsonSchema as a Swift String from the request body, so invalid UTF-8 never
    // reaches the rules as such; decoding with repair mirrors what a caller could send.
    let schemaText = String(decoding: parts[0], as: UTF8.self)
    guard let document = try? SchemaRules.validate(schemaText) else { return 0 }
    if (try? SchemaRules.validate(schemaText)) != document { violated("schema validation is not deterministic") }
    let earlier = parts.count > 1 ? try? SchemaRules.validate(String(decoding: parts[1], as: UTF8.self)) : nil
    exerciseSchema(document, earlier: earlier)
    var values = defaults(of: document)
    if parts.count > 2, case .object(let given)? = try? JSONParser.parse(parts[2]) { values = given }
    exerciseValues(document, values: values)
    return 0
}
