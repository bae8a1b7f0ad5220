/// Describes the field schemas of one form as shared `FieldShape`s. It is stateful because a
/// form must end on any input: it tracks the references being expanded (a schema that contains
/// itself) and how many fields exist so far (definitions that use each other twice per level
/// double the form at every level).
///
/// A `properties` object met again (a `$ref`'d definition's, once per use of the definition)
/// gets the fields already described for it whenever describing them again would take the
/// same decisions (`ShapeDependence`), so a definition costs one description however often it
/// is used, while the form stays exactly what describing every use would give.
struct FieldDescriber {
    /// Nesting beyond this (reachable only through references) becomes a raw JSON editor.
    static let maxDepth = 64
    /// Once the form has this many fields, further `$ref`s are not expanded. Fields written out
    /// in the text are always described; 64 KB holds fewer than 10,000 of them.
    static let maxFieldsBeforeReferencesStop = 10_000

    private var resolver: SchemaResolver
    /// The references being expanded above the current field, outermost first.
    private var activeReferences = ReferenceStack()
    private var fieldCount = 0
    /// Nested fields that may be reused, by the identities of their `properties` and `required`.
    private var groups: [GroupKey: DescribedGroup] = [:]
    /// Each `allOf` merged so far, by the identities of its list and of the `properties` and
    /// `required` beside it. The merged objects live here as long as the groups keyed by them.
    private var merges: [MergeKey: AllOfMerge.Outcome] = [:]
    /// What the shape being described has depended on so far.
    private var dependence = ShapeDependence()
    private let rawEditor = FieldShape(FieldTraits(), children: .none)
    private let tooDeep = FieldShape(FieldTraits(fallbackReason: tooDeepReason), children: .none)
    static let tooDeepReason = "nested more than \(maxDepth) levels deep"
    static let fieldCapReason = "the form already has \(maxFieldsBeforeReferencesStop) fields, so $ref is not expanded further"

    init(document: SchemaDocument) {
        resolver = SchemaResolver(document: document)
    }

    /// References looked up while describing, for the tests that keep it linear.
    var referenceLookups: Int { resolver.lookups }

    /// The `allOf`s merged into one object so far, for the tests that count what they reached.
    var mergedAllOfs: Int {
        merges.values.reduce(0) { count, outcome in if case .merged = outcome { count + 1 } else { count } }
    }

    /// The fields of a section, one per member of its `properties`, in text order. `neededByApp`
    /// names the fields the app cannot decode without (the root `required` of content state).
    mutating func sectionUses(of properties: JSONObject, required: [String], neededByApp: [String] = []) -> [FieldUse] {
        properties.members.map { member in
            var use = use(
                named: member.key, schema: member.value, isRequired: required.containsExactly(member.key), depth: 1)
            use.isNeededByApp = neededByApp.containsExactly(member.key)
            return use
        }
    }

    /// The nested fields of a group at `depth`, reused when this `properties` object was
    /// described before and nothing here would change the result.
    private mutating func groupUses(of properties: JSONObject, required: JSONValue?, depth: Int) -> [FieldUse] {
        let key = GroupKey(properties: properties.identity, required: required?.arrayValue?.identity)
        if let known = groups[key], isReusable(known.dependence, below: depth - 1) {
            fieldCount += known.dependence.fieldCount
            dependence.merge(known.dependence)
            return known.uses
        }
        let outerDependence = dependence
        let outerReferences = activeReferences.count
        dependence = ShapeDependence()
        let requiredNames = required?.arrayValue ?? []
        let uses = properties.members.map { member in
            use(
                named: member.key, schema: member.value, isRequired: requiredNames.contains(.string(member.key)),
                depth: depth)
        }
        var groupDependence = dependence
        dependence = outerDependence
        dependence.merge(groupDependence)
        if groupDependence.isReusable(outerReferences: outerReferences) {
            // Every cycle stopped inside recurs wherever the group is described: none concerns
            // an enclosing shape.
            groupDependence.outermostCyclePosition = .max
            groups[key] = DescribedGroup(uses: uses, dependence: groupDependence)
        }
        return uses
    }

    /// Whether fields described elsewhere with `nested` would be described the same under a
    /// field at `depth`: they fit under the depth limit and within the field cap, and none of
    /// their references is already being expanded here.
    private func isReusable(_ nested: ShapeDependence, below depth: Int) -> Bool {
        depth + nested.height <= Self.maxDepth
            && fieldCount + nested.fieldCount <= Self.maxFieldsBeforeReferencesStop
            && !activeReferences.intersects(nested.references)
    }

    /// One field; `title` (a choice branch's) names it before its schema's own title and its name.
    private mutating func use(named name: String, schema: JSONValue, isRequired: Bool, depth: Int, title: String? = nil)
        -> FieldUse
    {
        fieldCount += 1
        let (shape, shapeDependence) = shape(of: schema, depth: depth)
        dependence.include(shapeDependence)
        return FieldUse(
            name: name, label: title ?? shape.traits.title ?? Humanizer.label(for: name), isRequired: isRequired, shape: shape)
    }

    /// The shape of one field schema and what describing it depended on.
    private mutating func shape(of schema: JSONValue, depth: Int) -> (FieldShape, ShapeDependence) {
        guard case .object(let object) = schema else { return (rawEditor, ShapeDependence()) }
        guard depth <= Self.maxDepth else {
            var cut = ShapeDependence()
            cut.isCut = true
            return (tooDeep, cut)
        }
        let outerDependence = dependence
        let outerReferences = activeReferences.count
        dependence = ShapeDependence()
        var schema = FieldSchema(object)
        let shape = describe(&schema, depth: depth)
        activeReferences.truncate(to: outerReferences)
        let shapeDependence = dependence
        dependence = outerDependence
        return (shape, shapeDependence)
    }

    /// Follows the schema's references, leaving them on `activeReferences` for the nested
    /// fields, and describes the result.
    private mutating func describe(_ schema: inout FieldSchema, depth: Int) -> FieldShape {
        if let failure = resolveReferences(in: &schema) {
            return FieldShape(FieldTraits(annotatedFrom: schema, fallbackReason: failure), children: .none)
        }
        if schema.allOf != nil, !schema.isInexpressible, let failure = mergeAllOf(into: &schema) {
            return FieldShape(FieldTraits(annotatedFrom: schema, fallbackReason: failure), children: .none)
        }
        let traits = FieldTraits(describing: schema)
        if traits.widget == .choice, let cases = schema.cases {
            return choiceShape(traits, cases: cases, of: schema, depth: depth)
        }
        if traits.widget == .group, case .object(let properties)? = schema.properties {
            let uses = groupUses(of: properties, required: schema.required, depth: depth + 1)
            return FieldShape(traits, children: .fields(uses))
        }
        if traits.widget == .list {
            // A tuple (`items` as an array, or `prefixItems`) has no single item type.
            let items = schema.hasPrefixItems ? nil : schema.items
            let item = use(named: "item", schema: items ?? true, isRequired: false, depth: depth + 1)
            return FieldShape(traits, children: .item(item))
        }
        return FieldShape(traits, children: .none)
    }

    /// A choice with one field per case, holding the case's fields. A case whose value is not an
    /// object of fields makes the whole choice a raw editor, saying which case and why.
    private mutating func choiceShape(_ traits: FieldTraits, cases: [ChoiceCase], of schema: FieldSchema, depth: Int)
        -> FieldShape
    {
        let uses = cases.map { use(named: $0.key, schema: $0.payload, isRequired: true, depth: depth + 1, title: $0.title) }
        for use in uses {
            if let problem = Self.caseProblem(use.shape) {
                let reason = "case \(ClientText.quoted(use.name)) of \(schema.alternativesKeyword ?? "oneOf") \(problem)"
                return FieldShape(FieldTraits(annotatedFrom: schema, fallbackReason: reason), children: .none)
            }
        }
        return FieldShape(traits, children: .cases(uses))
    }

    /// Why a case's value cannot be shown as the case's fields: nil for a group of fields or an
    /// object that names none (a case without associated values).
    private static func caseProblem(_ payload: FieldShape) -> String? {
        let traits = payload.traits
        if traits.widget == .group { return nil }
        if let reason = traits.fallbackReason { return "cannot be shown as fields: \(reason)" }
        guard traits.type == .object, !traits.isNullable else {
            return "holds \(traits.type == .any ? "any value" : traits.type.rawValue), not an object of fields"
        }
        return nil
    }

    /// Replaces `schema`'s `allOf` with the one object its schemas merge into, or says why they
    /// do not. Each branch's references are followed here, as a field's are, so a branch that
    /// leads back to a schema being expanded is a cycle and the merged fields see them as active.
    ///
    /// The merged object is built once per `allOf` (and the `properties`/`required` beside it)
    /// and kept in `merges` for the whole form: its `properties` object is then one object, with
    /// one identity, wherever the `allOf` is used, so its fields are described once and reused
    /// like any definition's; and as long as the describer lives no other object can take its
    /// address, so two `allOf`s never share a `GroupKey`.
    private mutating func mergeAllOf(into schema: inout FieldSchema) -> String? {
        guard case .array(let branches)? = schema.allOf, !branches.isEmpty else {
            return "allOf is not a non-empty list of schemas"
        }
        if let reason = AllOfMerge.problem(ofPart: schema, named: "the schema beside it") { return reason }
        var parts: [AllOfMerge.Part] = []
        for (index, branch) in branches.enumerated() {
            switch branch {
            case .bool(true):
                continue
            case .object(let object):
                var part = FieldSchema(object)
                if let failure = resolveReferences(in: &part) { return "allOf branch \(index + 1): \(failure)" }
                if part.allOf != nil { return "allOf branch \(index + 1) holds an allOf of its own, which is not merged" }
                parts.append(AllOfMerge.Part(schema: part, name: "branch \(index + 1)"))
            default:
                return "allOf branch \(index + 1) is \(JSONWriter.string(branch)), not an object schema"
            }
        }
        let key = MergeKey(
            allOf: branches.identity, properties: schema.properties?.objectValue?.identity,
            required: schema.required?.arrayValue?.identity)
        let outcome = merges[key] ?? AllOfMerge.merge(parts + [AllOfMerge.Part(schema: schema, name: "the schema beside it")])
        merges[key] = outcome
        switch outcome {
        case .merged(let merged):
            schema.adopt(mergedAllOf: merged)
            return nil
        case .conflict(let reason):
            return reason
        }
    }

    /// Completes `schema` with the schemas its references lead to, pushing them onto
    /// `activeReferences`; returns why not when they cannot be followed or the form is already
    /// too large to expand more of them. Either way `dependence` learns what the outcome rested on.
    private mutating func resolveReferences(in schema: inout FieldSchema) -> String? {
        guard schema.reference != nil else { return nil }
        guard fieldCount <= Self.maxFieldsBeforeReferencesStop else {
            dependence.isCut = true
            return Self.fieldCapReason
        }
        let outerReferences = activeReferences.count
        let resolution = resolver.resolve(&schema, active: &activeReferences)
        for position in outerReferences..<activeReferences.count { dependence.references.insert(activeReferences[position]) }
        if case .cycle(let position) = resolution {
            dependence.outermostCyclePosition = min(dependence.outermostCyclePosition, position)
        }
        return SchemaResolver.fallbackReason(resolution, of: schema, active: activeReferences)
    }
}

/// A group's `properties` object and `required` array, by identity: the same objects of the
/// same document describe the same fields.
private struct GroupKey: Hashable {
    let properties: UnsafeRawPointer?
    let required: UnsafeRawPointer?
}

/// An `allOf` list and the `properties` and `required` beside it, by identity.
private struct MergeKey: Hashable {
    let allOf: UnsafeRawPointer?
    let properties: UnsafeRawPointer?
    let required: UnsafeRawPointer?
}

/// The fields of a group as described once, with what describing them depended on.
private struct DescribedGroup {
    let uses: [FieldUse]
    let dependence: ShapeDependence
}

extension JSONObject {
    /// The address of the members' storage, which every copy of this object taken from one
    /// parsed document shares while the document lives: the object's identity.
    fileprivate var identity: UnsafeRawPointer? {
        members.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }
}

extension Array {
    /// The address of the elements' storage, shared by every copy: the array's identity.
    fileprivate var identity: UnsafeRawPointer? {
        withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }
}
