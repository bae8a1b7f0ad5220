import Registry
import SwiftReader
import Testing

/// One test per Swift construct the reader maps. Most wrap a `ContentState` body in a minimal
/// `ActivityAttributes` struct named `A` and compare the root `properties` as compact JSON.
@Suite struct SwiftSchemaReaderFeatureTests {
    @Test func basicTypesMapToJSONTypes() throws {
        let properties = try contentProperties("""
            var name: String
            var count: Int
            var ratio: Double
            var scale: Float
            var width: CGFloat
            var price: Decimal
            var seconds: TimeInterval
            var isOn: Bool
            """)
        #expect(properties == #"{"name":{"type":"string"},"count":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807},"ratio":{"type":"number"},"scale":{"type":"number","minimum":-3.4028234663852886e38,"maximum":3.4028234663852886e38,"x-swift-type":"Float"},"width":{"type":"number"},"price":{"type":"number","x-swift-type":"Decimal"},"seconds":{"type":"number"},"isOn":{"type":"boolean"}}"#)
    }

    @Test func sizedIntegersCarryTheirRange() throws {
        let properties = try contentProperties("""
            var a: Int8
            var b: UInt16
            var c: Int64
            var d: UInt64
            var e: UInt
            """)
        #expect(properties == #"{"a":{"type":"integer","minimum":-128,"maximum":127},"b":{"type":"integer","minimum":0,"maximum":65535},"c":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807},"d":{"type":"integer","minimum":0,"maximum":18446744073709551615},"e":{"type":"integer","minimum":0,"maximum":18446744073709551615}}"#)
    }

    @Test func dateIsSecondsSinceReferenceDateMarkedAsDateTime() throws {
        let properties = try contentProperties("var departure: Date")
        #expect(properties == #"{"departure":{"type":"number","format":"date-time","x-swift-type":"Date"}}"#)
    }

    @Test func urlAndUUIDAreFormattedStrings() throws {
        let properties = try contentProperties("var link: URL\nvar id: UUID")
        #expect(properties == #"{"link":{"type":"string","format":"uri","x-swift-type":"URL"},"id":{"type":"string","format":"uuid","x-swift-type":"UUID"}}"#)
    }

    @Test func optionalsAllowNullAndAreNotRequired() throws {
        let schema = try contentSchema("""
            var a: Int?
            var b: Optional<String>
            var c: Date!
            var d: Bool??
            var e: Int
            """)
        #expect(schema == #"{"type":"object","properties":{"a":{"type":["integer","null"],"minimum":-9223372036854775808,"maximum":9223372036854775807},"b":{"type":["string","null"]},"c":{"type":["number","null"],"format":"date-time","x-swift-type":"Date"},"d":{"type":["boolean","null"]},"e":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}},"required":["e"],"attributes":{"properties":{}}}"#)
    }

    @Test func optionalEnumListsNullAmongItsValues() throws {
        let properties = try contentProperties(
            "var side: Side?", declarations: "enum Side: String, Codable { case home, away }")
        #expect(properties == #"{"side":{"type":["string","null"],"enum":["home","away",null]}}"#)
    }

    @Test func arraysInEitherSpellingUseItems() throws {
        let properties = try contentProperties("""
            var tags: [String]
            var scores: Array<Int>
            var grid: [[Double]]
            var maybe: [Int?]?
            """)
        #expect(properties == #"{"tags":{"type":"array","items":{"type":"string"}},"scores":{"type":"array","items":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}},"grid":{"type":"array","items":{"type":"array","items":{"type":"number"}}},"maybe":{"type":["array","null"],"items":{"type":["integer","null"],"minimum":-9223372036854775808,"maximum":9223372036854775807}}}"#)
    }

    @Test func stringKeyedDictionariesAreObjectsWithAdditionalProperties() throws {
        let properties = try contentProperties("""
            var stats: [String: Double]
            var labels: Dictionary<String, [String]>
            """)
        #expect(properties == #"{"stats":{"type":"object","additionalProperties":{"type":"number"}},"labels":{"type":"object","additionalProperties":{"type":"array","items":{"type":"string"}}}}"#)
    }

    @Test func nestedStructsAreInlinedAtAnyDepth() throws {
        let source = """
            struct Address: Codable, Hashable {
                struct Geo: Codable, Hashable { var lat: Double; var lon: Double }
                var street: String
                var geo: Geo?
            }
            struct A: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    struct Stop: Codable, Hashable { var address: Address }
                    var next: Stop
                    var home: Address.Geo
                }
            }
            """
        let schema = try schemaText(source, "A")
        #expect(schema == #"{"type":"object","properties":{"next":{"type":"object","properties":{"address":{"type":"object","properties":{"street":{"type":"string"},"geo":{"type":["object","null"],"properties":{"lat":{"type":"number"},"lon":{"type":"number"}},"required":["lat","lon"]}},"required":["street"]}},"required":["address"]},"home":{"type":"object","properties":{"lat":{"type":"number"},"lon":{"type":"number"}},"required":["lat","lon"]}},"required":["next","home"],"attributes":{"properties":{}}}"#)
    }

    @Test func recursiveStructGoesToDefsAndIsUsedByReference() throws {
        let schema = try contentSchema("""
            var menu: Node
            var extra: Node?
            """, declarations: """
            struct Node: Codable, Hashable {
                var title: String
                var children: [Node]
            }
            """)
        #expect(schema == ##"{"type":"object","properties":{"menu":{"$ref":"#/$defs/A.Node"},"extra":{"anyOf":[{"$ref":"#/$defs/A.Node"},{"type":"null"}]}},"required":["menu"],"attributes":{"properties":{}},"$defs":{"A.Node":{"type":"object","properties":{"title":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/A.Node"}}},"required":["title","children"]}}}"##)
        _ = try SchemaRules.validate(schema)
    }

    @Test func stringBackedEnumListsRawValuesDefaultingToCaseNames() throws {
        let properties = try contentProperties("var status: Status", declarations: """
            enum Status: String, Codable {
                case boarding, delayed = "DELAYED"
                case departed
            }
            """)
        #expect(properties == #"{"status":{"type":"string","enum":["boarding","DELAYED","departed"]}}"#)
    }

    @Test func intBackedEnumCountsUpFromTheLastExplicitValue() throws {
        let properties = try contentProperties("var level: Level", declarations: """
            enum Level: Int, Codable {
                case low, mid = 5, high
                case critical = -1, unknown
            }
            """)
        #expect(properties == #"{"level":{"type":"integer","enum":[0,5,6,-1,0]}}"#)
    }

    @Test func letAndVarAreBothCoded() throws {
        let properties = try contentProperties("let a: String\nvar b: String")
        #expect(properties == #"{"a":{"type":"string"},"b":{"type":"string"}}"#)
    }

    @Test func letWithInitialValueIsNotDecodedSoItIsLeftOut() throws {
        let properties = try contentProperties("""
            let kind: String = "flight"
            let kind2 = 3
            var gate: String
            """)
        #expect(properties == #"{"gate":{"type":"string"}}"#)
    }

    @Test func literalInitialValuesBecomeDefaults() throws {
        let properties = try contentProperties("""
            var a: Int = 1_000
            var b: Int = -7
            var c: UInt8 = 0xFF
            var d: Double = 2.50
            var e: Double = 3
            var f: String = "hi"
            var g: Bool = true
            var h: Status = .open
            var i: Status? = Status.closed
            var j: Int? = nil
            var k: Date = Date()
            var l: Double = 1e-3
            """, declarations: "enum Status: String, Codable { case open = \"OPEN\", closed }")
        #expect(properties == #"{"a":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807,"default":1000},"b":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807,"default":-7},"c":{"type":"integer","minimum":0,"maximum":255,"default":255},"d":{"type":"number","default":2.50},"e":{"type":"number","default":3},"f":{"type":"string","default":"hi"},"g":{"type":"boolean","default":true},"h":{"type":"string","enum":["OPEN","closed"],"default":"OPEN"},"i":{"type":["string","null"],"enum":["OPEN","closed",null],"default":"closed"},"j":{"type":["integer","null"],"minimum":-9223372036854775808,"maximum":9223372036854775807},"k":{"type":"number","format":"date-time","x-swift-type":"Date"},"l":{"type":"number","default":1e-3}}"#)
    }

    @Test func typeIsInferredFromALiteralOrEnumCaseInitialValue() throws {
        let properties = try contentProperties("""
            var count = 0
            var ratio = 0.5
            var label = "x"
            var flag = false
            var status = Status.open
            """, declarations: "enum Status: String, Codable { case open }")
        #expect(properties == #"{"count":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807,"default":0},"ratio":{"type":"number","default":0.5},"label":{"type":"string","default":"x"},"flag":{"type":"boolean","default":false},"status":{"type":"string","enum":["open"],"default":"open"}}"#)
    }

    @Test func docCommentsBecomeDescriptionsAndPlainCommentsDoNot() throws {
        let properties = try contentProperties("""
            /// The gate,
            /// as shown on the board.
            var gate: String
            /** Minutes late.
             *
             * Zero when on time.
             */
            var delay: Int
            // Not documentation.
            var seat: String
            """)
        #expect(properties == #"{"gate":{"type":"string","description":"The gate,\nas shown on the board."},"delay":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807,"description":"Minutes late.\n\nZero when on time."},"seat":{"type":"string"}}"#)
    }

    @Test func codingKeysRenameAndLeaveOutProperties() throws {
        let properties = try contentProperties("""
            var flightNumber: String
            var gate: String
            var cachedLabel: String = ""
            enum CodingKeys: String, CodingKey {
                case flightNumber = "flight_number"
                case gate
            }
            """)
        #expect(properties == #"{"flight_number":{"type":"string"},"gate":{"type":"string"}}"#)
    }

    @Test func codingKeysWithoutStringRawValuesUseCaseNames() throws {
        let properties = try contentProperties("""
            var gate: String
            var note: String = ""
            private enum CodingKeys: CodingKey { case gate }
            """)
        #expect(properties == #"{"gate":{"type":"string"}}"#)
    }

    @Test func computedAndStaticPropertiesAndMethodsAreSkipped() throws {
        let properties = try contentProperties("""
            var gate: String
            var label: String { "Gate \\(gate)" }
            var upper: String {
                get { gate.uppercased() }
                set { gate = newValue }
            }
            var seat: String = "" {
                didSet { print(seat) }
            }
            static var sample = Self(gate: "A1", seat: "")
            static let formatter: DateFormatter = {
                let f = DateFormatter()
                return f
            }()
            func describe() -> String { gate }
            mutating func board(at gate: String) { self.gate = gate }
            init(gate: String, seat: String) { self.gate = gate; self.seat = seat }
            subscript(index: Int) -> Character { gate[gate.startIndex] }
            """)
        #expect(properties == #"{"gate":{"type":"string"},"seat":{"type":"string","default":""}}"#)
    }

    @Test func protocolsAndTheirRequirementsAreSkipped() throws {
        let source = """
            protocol Describable {
                var summary: String { get }
                func describe() -> String
            }
            struct A: ActivityAttributes, Describable {
                struct ContentState: Codable, Hashable { var gate: String }
                var summary: String { "A" }
                func describe() -> String { summary }
            }
            """
        #expect(try schemaText(source, "A") == #"{"type":"object","properties":{"gate":{"type":"string"}},"required":["gate"],"attributes":{"properties":{}}}"#)
    }

    @Test func declarationAttributesAndModifiersAreTolerated() throws {
        let properties = try contentProperties("""
            @available(*, deprecated, message: "use seat")
            public private(set) var gate: String
            nonisolated(unsafe) var seat: String
            """)
        #expect(properties == #"{"gate":{"type":"string"},"seat":{"type":"string"}}"#)
    }

    @Test func typeAliasesAreResolvedWhereverDeclared() throws {
        let source = """
            typealias Score = Int
            typealias Pair<T> = [T]
            struct A: ActivityAttributes {
                typealias Label = String
                struct ContentState: Codable, Hashable {
                    typealias Seconds = Double
                    var home: Score
                    var label: Label
                    var clock: Seconds
                    var both: Pair<Score>
                }
            }
            """
        let properties = try schemaText(source, "A", part: "properties")
        #expect(properties == #"{"home":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807},"label":{"type":"string"},"clock":{"type":"number"},"both":{"type":"array","items":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}}}"#)
    }

    @Test func genericStructsAreSpecialisedPerUse() throws {
        let properties = try contentProperties("""
            var distance: Measured<Double>
            var laps: Measured<[Int]>?
            """, declarations: """
            struct Measured<Value: Codable & Hashable>: Codable, Hashable {
                var value: Value
                var unit: String
            }
            """)
        #expect(properties == #"{"distance":{"type":"object","properties":{"value":{"type":"number"},"unit":{"type":"string"}},"required":["value","unit"]},"laps":{"type":["object","null"],"properties":{"value":{"type":"array","items":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}},"unit":{"type":"string"}},"required":["value","unit"]}}"#)
    }

    @Test func moduleQualifiedStandardTypesResolve() throws {
        let properties = try contentProperties("var a: Swift.Int\nvar b: Foundation.Date?")
        #expect(properties == #"{"a":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807},"b":{"type":["number","null"],"format":"date-time","x-swift-type":"Date"}}"#)
    }

    @Test func oneDeclarationMayBindSeveralProperties() throws {
        let properties = try contentProperties("""
            var a, b: Int
            var c = 1, d: String = "x"
            """)
        #expect(properties == #"{"a":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807},"b":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807},"c":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807,"default":1},"d":{"type":"string","default":"x"}}"#)
    }

    @Test func contentStateMayBeATypeAliasOfAStruct() throws {
        let source = """
            struct Status: Codable, Hashable { var gate: String }
            struct A: ActivityAttributes {
                typealias ContentState = Status
                var flight: String
            }
            """
        #expect(try schemaText(source, "A") == #"{"type":"object","properties":{"gate":{"type":"string"}},"required":["gate"],"attributes":{"properties":{"flight":{"type":"string"}},"required":["flight"]}}"#)
    }

    @Test func extensionsAddConformanceAndNestedTypes() throws {
        let source = """
            struct A {
                struct ContentState: Codable, Hashable { var phase: Phase }
            }
            extension A: ActivityAttributes {}
            extension A.ContentState {
                enum Phase: String, Codable { case on, off }
                static let sample = Self(phase: .on)
            }
            """
        #expect(try schemaText(source, "A", part: "properties") == #"{"phase":{"type":"string","enum":["on","off"]}}"#)
    }

    @Test func attributesSectionHasEmptyPropertiesWhenTheStructHasNone() throws {
        let source = "struct A: ActivityAttributes { struct ContentState: Codable, Hashable {} }"
        #expect(try schemaText(source, "A") == #"{"type":"object","properties":{},"attributes":{"properties":{}}}"#)
    }

    @Test func structDocCommentBecomesTheRootDescription() throws {
        let source = """
            /// A parcel on its way.
            @available(iOS 16.1, *)
            struct A: ActivityAttributes { struct ContentState: Codable, Hashable {} }
            """
        #expect(try schemaText(source, "A") == #"{"type":"object","description":"A parcel on its way.","properties":{},"attributes":{"properties":{}}}"#)
    }

    @Test func nestedAttributesTypeIsFoundByDottedOrBareName() throws {
        let source = """
            enum Parcels {
                struct Attributes: ActivityAttributes {
                    struct ContentState: Codable, Hashable { var stop: Int }
                }
            }
            """
        let expected = #"{"type":"object","properties":{"stop":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}},"required":["stop"],"attributes":{"properties":{}}}"#
        #expect(try schemaText(source, "Parcels.Attributes") == expected)
        #expect(try schemaText(source, "Attributes") == expected)
    }

    @Test func conditionalCompilationKeepsTheFirstBranch() throws {
        let source = """
            #if canImport(ActivityKit)
            import ActivityKit
            struct A: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    #if os(iOS)
                    var gate: String
                    #elseif os(macOS)
                    var gate: Int
                    #else
                    var gate: Bool
                    #endif
                }
            }
            #endif
            """
        #expect(try schemaText(source, "A", part: "properties") == #"{"gate":{"type":"string"}}"#)
    }
}

// MARK: - Helpers shared by the SwiftSchemaReader test suites

/// The compact JSON text of the schema, or of one root member of it (`part`).
func schemaText(_ source: String, _ typeName: String, part: String? = nil) throws -> String {
    let schema = try SwiftSchemaReader.schema(fromSwiftSource: source, typeName: typeName)
    guard let part else { return JSONWriter.string(schema) }
    return JSONWriter.string(schema.objectValue?[part] ?? .null)
}

/// Source for an attributes struct `A` whose ContentState has `body`, with `declarations`
/// beside ContentState.
func attributesSource(contentState body: String, declarations: String = "") -> String {
    """
    import ActivityKit
    struct A: ActivityAttributes {
        struct ContentState: Codable, Hashable {
    \(body)
        }
    \(declarations)
    }
    """
}

/// The compact text of the root `properties` for a ContentState with `body`.
func contentProperties(_ body: String, declarations: String = "") throws -> String {
    try schemaText(attributesSource(contentState: body, declarations: declarations), "A", part: "properties")
}

/// The compact text of the whole schema for a ContentState with `body`.
func contentSchema(_ body: String, declarations: String = "") throws -> String {
    try schemaText(attributesSource(contentState: body, declarations: declarations), "A")
}
