/// A JSON Schema document compiled once into a graph of nodes: every reference is resolved to a
/// node index and every pattern compiled at compile time, so a check walks the value and the
/// graph without looking anything up by name, and compiling is linear in the schema's size.
public struct CompiledSchema: Sendable {
    public let dialect: SchemaDialect
    /// Keywords the dialect does not define (with the nearest one it does), for publish warnings.
    public let unknownKeywords: [UnknownKeyword]

    let nodes: [SchemaNode]
    let resources: [SchemaResource]
    let rootNode: Int
    let embeddedNodes: [(name: String, node: Int)]
    let limits: SchemaLimits
    /// How many `$ref`/`$dynamicRef` keywords were resolved: each exactly once, whatever the
    /// number of paths that reach it (the linearity tests read it).
    let referenceResolutions: Int

    /// Compiles a whole schema document once. `embeddedSchemas`: root-level keyword names whose
    /// values are compiled as subschemas of the same document (the registry keeps an `attributes`
    /// schema beside the root's `properties`; `$ref`s inside it resolve against the root).
    /// `defaultDialect` applies when the root has no `$schema`.
    public static func compile(
        _ root: JSONValue, embeddedSchemas: [String] = [], limits: SchemaLimits = .default,
        defaultDialect: SchemaDialect = .draft2020_12
    ) throws(SchemaCompileError) -> CompiledSchema {
        var compiler = try SchemaCompiler(root: root, embeddedSchemas: embeddedSchemas, limits: limits, defaultDialect: defaultDialect)
        return try compiler.compile()
    }

    init(
        dialect: SchemaDialect, unknownKeywords: [UnknownKeyword], nodes: [SchemaNode], resources: [SchemaResource],
        rootNode: Int, embeddedNodes: [(name: String, node: Int)], limits: SchemaLimits, referenceResolutions: Int
    ) {
        self.dialect = dialect
        self.unknownKeywords = unknownKeywords
        self.nodes = nodes
        self.resources = resources
        self.rootNode = rootNode
        self.embeddedNodes = embeddedNodes
        self.limits = limits
        self.referenceResolutions = referenceResolutions
    }

    /// How many schema nodes the document compiled to (one per schema location).
    var nodeCount: Int { nodes.count }

    /// Validates against the root (embedded == nil) or an embedded schema. Every keyword
    /// evaluated takes at least one unit of `budget`; when it runs out the outcome says
    /// `exhausted` and its failures are incomplete. An embedded name the document does not hold
    /// is an empty schema (the registry's `attributes` may be absent).
    public func validate(
        _ instance: JSONValue, embedded: String? = nil, options: ValidationOptions = .init(), budget: inout Int
    ) -> ValidationOutcome {
        let start: Int
        if let embedded {
            guard let found = embeddedNodes.first(where: { $0.name.hasSameBytes(as: embedded) }) else {
                return ValidationOutcome(failures: [], formatMismatches: [], exhausted: false)
            }
            start = found.node
        } else {
            start = rootNode
        }
        var evaluator = SchemaEvaluator(schema: self, options: options, budget: budget)
        var output = EvaluationOutput()
        _ = evaluator.evaluate(start, instance, at: [], into: &output)
        budget = evaluator.budget
        return ValidationOutcome(
            failures: output.failures, formatMismatches: output.formatMismatches, exhausted: evaluator.exhausted)
    }
}

public struct ValidationOptions: Sendable {
    /// Whether `format` is asserted (a mismatch is a failure) rather than an annotation (a
    /// mismatch is reported in `formatMismatches`), as JSON Schema's format-assertion vocabulary
    /// allows a schema to opt into.
    public var assertFormats: Bool = false

    public init(assertFormats: Bool = false) {
        self.assertFormats = assertFormats
    }
}

public struct ValidationOutcome: Sendable {
    /// Empty when the value is valid.
    public var failures: [ValidationFailure]
    /// Values that do not match their `format` while formats are annotations (with
    /// `assertFormats` they are failures instead).
    public var formatMismatches: [ValidationFailure]
    /// The budget ran out: the result is incomplete.
    public var exhausted: Bool
}

public struct ValidationFailure: Sendable, Equatable {
    /// Where in the value.
    public let instancePath: [JSONPathComponent]
    /// The keyword that failed: `minLength`, `oneOf`, …
    public let keyword: String
    /// The JSON pointer of the keyword in the schema text.
    public let schemaPath: String
    /// For people, without the path: "must be at least 3 characters long, not 2".
    public let message: String
    /// The `x-swift-type` of the schema object holding the keyword, if any.
    public let swiftType: String?

    public init(instancePath: [JSONPathComponent], keyword: String, schemaPath: String, message: String, swiftType: String?) {
        self.instancePath = instancePath
        self.keyword = keyword
        self.schemaPath = schemaPath
        self.message = message
        self.swiftType = swiftType
    }

    /// Texts and keys compared by bytes (Unicode scalars), as names are compared everywhere.
    public static func == (lhs: ValidationFailure, rhs: ValidationFailure) -> Bool {
        lhs.keyword.hasSameBytes(as: rhs.keyword) && lhs.schemaPath.hasSameBytes(as: rhs.schemaPath)
            && lhs.message.hasSameBytes(as: rhs.message)
            && sameBytes(lhs.swiftType, rhs.swiftType)
            && lhs.instancePath.count == rhs.instancePath.count
            && zip(lhs.instancePath, rhs.instancePath).allSatisfy { pair in
                switch pair {
                case (.key(let l), .key(let r)): l.hasSameBytes(as: r)
                case (.index(let l), .index(let r)): l == r
                default: false
                }
            }
    }

    private static func sameBytes(_ lhs: String?, _ rhs: String?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let l?, let r?): l.hasSameBytes(as: r)
        default: false
        }
    }
}

/// Why a schema document cannot be compiled, and where (`path` is a JSON pointer into it).
public struct SchemaCompileError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// A keyword the dialect does not define, with the known keyword nearest to it by edit distance
/// (`maxLenght` → `maxLength`) when one is close.
public struct UnknownKeyword: Sendable, Equatable {
    /// The JSON pointer of the schema object holding it.
    public let path: String
    public let keyword: String
    public let suggestion: String?

    public init(path: String, keyword: String, suggestion: String?) {
        self.path = path
        self.keyword = keyword
        self.suggestion = suggestion
    }
}

/// Bounds on what a schema may compile to and a check may do, so that one schema or one value
/// cannot take unbounded memory or stack.
public struct SchemaLimits: Sendable {
    /// Schema locations (objects and booleans) one document may compile to.
    public var maxNodes: Int
    /// UTF-8 bytes of one `pattern` or `patternProperties` key.
    public var maxPatternBytes: Int
    /// Schema nodes nested in one evaluation (in-place applicators and references chained
    /// plus the value's own depth): bounds the stack a check uses.
    public var maxEvaluationDepth: Int

    public init(maxNodes: Int = 50_000, maxPatternBytes: Int = 4_096, maxEvaluationDepth: Int = 1_000) {
        self.maxNodes = maxNodes
        self.maxPatternBytes = maxPatternBytes
        self.maxEvaluationDepth = maxEvaluationDepth
    }

    public static let `default` = SchemaLimits()
}
