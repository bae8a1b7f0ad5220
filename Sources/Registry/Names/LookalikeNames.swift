import Foundation

/// Names a person could take for another name: valid and distinct (names are compared by their
/// bytes), yet shown on screen like a different spelling. `Caf\u{E9}` and `Cafe\u{301}`, `Flight`
/// and `Fl\u{200B}ight`, `Flight` and `\u{FF26}light`, Latin `Flight` and one with a Cyrillic
/// `і`, are each two types or two fields. Publishing accepts them; the dry run and Create say so
/// in a warning, never an error, so that a human notices before clients pick the wrong one.
public enum LookalikeNames {
    /// Warnings listed one by one; past this many, one more warning counts the rest, so a
    /// schema of thousands of such keys gets a bounded answer.
    public static let maxListed = 20
    /// A name's compatibility reading is quoted only when this short, to keep messages small.
    static let maxQuotedScalars = 64

    /// The type name, then every key of every `properties` object in the schema (nested ones
    /// and definitions' included), in text order; a warning's path is `attributesType` or the
    /// `jsonSchema` path of the property key.
    public static func warnings(attributesType: String, document: SchemaDocument) -> [SchemaWarning] {
        var found: [SchemaWarning] = []
        if let concerns = concerns(about: attributesType) {
            found.append(SchemaWarning(path: "attributesType", message: "\(JSONWriter.string(.string(attributesType))) \(concerns)"))
        }
        var path: [JSONPathComponent] = []
        collect(in: .object(document.root), at: &path, into: &found)
        guard found.count > maxListed else { return found }
        let rest = found.count - maxListed
        return found.prefix(maxListed)
            + [SchemaWarning(path: "jsonSchema", message: "\(rest) more \(rest == 1 ? "name" : "names") may be mistaken for others")]
    }

    /// Why `name` may be mistaken for another name, as one phrase, or nil when it may not.
    public static func concerns(about name: String) -> String? {
        // ASCII is NFC and NFKC, has no invisible characters and one script.
        guard !name.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var concerns: [String] = []
        let composed = name.precomposedStringWithCanonicalMapping
        if !composed.hasSameBytes(as: name) {
            concerns.append("is not in Unicode NFC (a composed spelling that looks the same is another name)")
        }
        if let invisible = name.unicodeScalars.first(where: { $0.properties.generalCategory == .format }) {
            concerns.append("contains the invisible character \(codePoint(invisible))")
        }
        let compatible = name.precomposedStringWithCompatibilityMapping
        if !compatible.hasSameBytes(as: composed) {
            var concern = "contains compatibility characters such as full-width letters"
            if compatible.unicodeScalars.count <= maxQuotedScalars {
                concern += " (it reads as \(JSONWriter.string(.string(compatible))))"
            }
            concerns.append(concern)
        }
        let scripts = LetterScript.scripts(in: name)
        if scripts.count > 1 {
            concerns.append("mixes \(scripts.map(\.rawValue).joined(separator: " and ")) letters")
        }
        guard !concerns.isEmpty else { return nil }
        return concerns.joined(separator: ", ") + "; it may be mistaken for another name"
    }

    /// Walks the schema with the path to the current value as components, rendered only for a
    /// warning.
    private static func collect(in value: JSONValue, at path: inout [JSONPathComponent], into found: inout [SchemaWarning]) {
        switch value {
        case .object(let object):
            for member in object.members {
                path.append(.key(member.key))
                if member.key.hasSameBytes(as: "properties"), case .object(let properties) = member.value {
                    for property in properties.members {
                        guard let concerns = concerns(about: property.key) else { continue }
                        let propertyPath = JSONPathComponent.render(path + [.key(property.key)], prefix: "jsonSchema")
                        found.append(SchemaWarning(path: propertyPath, message: concerns))
                    }
                }
                collect(in: member.value, at: &path, into: &found)
                path.removeLast()
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                collect(in: element, at: &path, into: &found)
                path.removeLast()
            }
        case .null, .bool, .number, .string:
            break
        }
    }

    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// The scripts whose letters are most often mistaken for each other's (`a` and Cyrillic `а`,
/// `o` and Greek `ο`). Letters of other scripts, digits and marks count for none, so names that
/// mix, say, Latin and Japanese are not flagged.
enum LetterScript: String, CaseIterable {
    case latin = "Latin"
    case greek = "Greek"
    case cyrillic = "Cyrillic"
    case armenian = "Armenian"
    case hebrew = "Hebrew"
    case arabic = "Arabic"
    case cherokee = "Cherokee"

    /// The scripts of the letters in `name`, in the order of this enumeration.
    static func scripts(in name: String) -> [LetterScript] {
        var seen = Set<LetterScript>()
        for scalar in name.unicodeScalars where scalar.isLetter {
            if let script = allCases.first(where: { $0.ranges.contains { $0.contains(scalar.value) } }) {
                seen.insert(script)
            }
        }
        return allCases.filter(seen.contains)
    }

    /// The script's blocks (letters only are looked up, so the blocks' other characters do not
    /// matter).
    private var ranges: [ClosedRange<UInt32>] {
        switch self {
        case .latin:
            [
                0x41...0x5A, 0x61...0x7A, 0xAA...0xAA, 0xBA...0xBA, 0xC0...0x2AF, 0x1D00...0x1DBF, 0x1E00...0x1EFF,
                0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB6F, 0xFB00...0xFB06, 0xFF21...0xFF3A, 0xFF41...0xFF5A,
            ]
        case .greek: [0x370...0x3FF, 0x1F00...0x1FFF]
        case .cyrillic: [0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F]
        case .armenian: [0x531...0x58F, 0xFB13...0xFB17]
        case .hebrew: [0x591...0x5FF, 0xFB1D...0xFB4F]
        case .arabic: [0x600...0x6FF, 0x750...0x77F, 0x8A0...0x8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF]
        case .cherokee: [0x13A0...0x13FF, 0xAB70...0xABBF]
        }
    }
}

extension Unicode.Scalar {
    fileprivate var isLetter: Bool {
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
        default: false
        }
    }
}
