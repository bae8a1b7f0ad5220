import Foundation
import Registry
import Testing
import TestSupport

/// Inputs found while fuzzing the Registry module (Tests/Fuzz), kept inline, and the seed corpus
/// replayed through the properties the fuzz target asserts, so `swift test` catches a regression
/// without a fuzzing run.
@Suite struct FuzzRegressionTests {
    /// A chain of `$ref` diamonds: every definition refers to the next one twice, 18 levels
    /// deep. 1.7 KB of schema text naming 2^18 paths to the leaf. The form builder caps the
    /// fields it expands; anything that follows every reference path without such a cap or a
    /// memo of each definition's result does 2^18 times the work (2^30 at 30 levels).
    static let refDiamondChain = """
        {"type":"object","properties":{"x":{"$ref":"#/$defs/D0"}},"$defs":{
         "D0":{"type":"object","properties":{"a":{"$ref":"#/$defs/D1"},"b":{"$ref":"#/$defs/D1"}}},
         "D1":{"type":"object","properties":{"a":{"$ref":"#/$defs/D2"},"b":{"$ref":"#/$defs/D2"}}},
         "D2":{"type":"object","properties":{"a":{"$ref":"#/$defs/D3"},"b":{"$ref":"#/$defs/D3"}}},
         "D3":{"type":"object","properties":{"a":{"$ref":"#/$defs/D4"},"b":{"$ref":"#/$defs/D4"}}},
         "D4":{"type":"object","properties":{"a":{"$ref":"#/$defs/D5"},"b":{"$ref":"#/$defs/D5"}}},
         "D5":{"type":"object","properties":{"a":{"$ref":"#/$defs/D6"},"b":{"$ref":"#/$defs/D6"}}},
         "D6":{"type":"object","properties":{"a":{"$ref":"#/$defs/D7"},"b":{"$ref":"#/$defs/D7"}}},
         "D7":{"type":"object","properties":{"a":{"$ref":"#/$defs/D8"},"b":{"$ref":"#/$defs/D8"}}},
         "D8":{"type":"object","properties":{"a":{"$ref":"#/$defs/D9"},"b":{"$ref":"#/$defs/D9"}}},
         "D9":{"type":"object","properties":{"a":{"$ref":"#/$defs/D10"},"b":{"$ref":"#/$defs/D10"}}},
         "D10":{"type":"object","properties":{"a":{"$ref":"#/$defs/D11"},"b":{"$ref":"#/$defs/D11"}}},
         "D11":{"type":"object","properties":{"a":{"$ref":"#/$defs/D12"},"b":{"$ref":"#/$defs/D12"}}},
         "D12":{"type":"object","properties":{"a":{"$ref":"#/$defs/D13"},"b":{"$ref":"#/$defs/D13"}}},
         "D13":{"type":"object","properties":{"a":{"$ref":"#/$defs/D14"},"b":{"$ref":"#/$defs/D14"}}},
         "D14":{"type":"object","properties":{"a":{"$ref":"#/$defs/D15"},"b":{"$ref":"#/$defs/D15"}}},
         "D15":{"type":"object","properties":{"a":{"$ref":"#/$defs/D16"},"b":{"$ref":"#/$defs/D16"}}},
         "D16":{"type":"object","properties":{"a":{"$ref":"#/$defs/D17"},"b":{"$ref":"#/$defs/D17"}}},
         "D17":{"type":"object","properties":{"a":{"$ref":"#/$defs/D18"},"b":{"$ref":"#/$defs/D18"}}},
         "D18":{"type":"string","maxLength":3}
        }}
        """

    /// Create, `:validate` and the form all compute the worst-case payload size; on this schema
    /// PayloadSizeEstimator walked every one of the 2^18 reference paths (0.7 s optimised, tens
    /// of seconds in a debug build; each further level doubles it), holding an HTTP worker the
    /// whole time. A bound that follows references must cost about one visit per definition.
    @Test(.timeLimit(.minutes(1)))
    func payloadBoundsOfARefDiamondChainAreQuick() throws {
        let document = try SchemaRules.validate(Self.refDiamondChain)
        let clock = ContinuousClock()
        let content = clock.measure { _ = PayloadSizeEstimator.maxContentStateBytes(of: document) }
        let start = clock.measure { _ = PayloadSizeEstimator.worstCaseStartPayloadBytes(of: document, attributesType: "T") }
        #expect(content < .milliseconds(200), "maxContentStateBytes took \(content)")
        #expect(start < .milliseconds(200), "worstCaseStartPayloadBytes took \(start)")
    }

    /// The form builder's cap holds: the same schema gives a bounded form, quickly.
    @Test func formOfARefDiamondChainIsBounded() throws {
        let document = try SchemaRules.validate(Self.refDiamondChain)
        let clock = ContinuousClock()
        var rendered = ""
        let elapsed = clock.measure { rendered = Self.formText(document) }
        #expect(elapsed < .seconds(10), "form took \(elapsed)")
        #expect(rendered.utf8.count < 4 << 20)
        #expect(Compatibility.problems(from: document, oldVersion: 1, to: document).isEmpty)
    }

    // MARK: the seed corpus through the fuzz target's properties

    static let corpus: [String] = {
        let directory = TestPaths.packageRoot.appendingPathComponent("Tests/Fuzz/corpus")
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }()

    @Test func corpusIsPresent() {
        #expect(Self.corpus.count >= 20)
    }

    @Test(arguments: corpus)
    func corpusInputKeepsTheFuzzProperties(_ name: String) throws {
        let url = TestPaths.packageRoot.appendingPathComponent("Tests/Fuzz/corpus").appendingPathComponent(name)
        let bytes = [UInt8](try Data(contentsOf: url))
        // The first part of a multi-part input is the schema (see Tests/Fuzz/FuzzTarget.swift).
        let schema = Self.firstPart(of: bytes)
        if let value = try? JSONParser.parse(schema) {
            #expect(try JSONParser.parse(JSONWriter.string(value), options: .init(maxDepth: 65)) == value)
            #expect(try JSONParser.parse(JSONPrettyWriter.string(value), options: .init(maxDepth: 65)) == value)
        }
        guard let document = try? SchemaRules.validate(String(decoding: schema, as: UTF8.self)) else { return }
        #expect(Self.formText(document) == Self.formText(document))
        #expect(Compatibility.problems(from: document, oldVersion: 1, to: document).isEmpty)
        _ = PayloadSizeEstimator.worstCaseStartPayloadBytes(of: document, attributesType: "T")
    }

    /// The form object as the form endpoint writes it.
    static func formText(_ document: SchemaDocument) -> String {
        var out: [UInt8] = []
        FormWriter.write(formOf: document, application: "A", attributesType: "T", version: 1, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func firstPart(of bytes: [UInt8]) -> [UInt8] {
        let separator = Array("\n@@@\n".utf8)
        guard bytes.count >= separator.count else { return bytes }
        for index in 0...(bytes.count - separator.count) where bytes[index..<index + separator.count].elementsEqual(separator) {
            return Array(bytes[..<index])
        }
        return bytes
    }
}
