/// A name keyed the way PostgreSQL, JSON (RFC 8259 §8.3) and JSON Schema compare names: by its
/// Unicode scalars, which for UTF-8 text means byte for byte.
///
/// Swift's `String` compares and hashes by canonical equivalence instead: `"Caf\u{E9}"` (NFC)
/// and `"Cafe\u{301}"` (NFD) are equal and hash alike, and so are `"\u{212A}"` (Kelvin sign)
/// and `"K"`. Two such names are two types, two applications or two JSON keys everywhere else,
/// so a `String` must never key a dictionary, set or cache of names; this wrapper does.
public struct ExactName: Hashable, Sendable, CustomStringConvertible {
    /// The name as given, never normalised.
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public static func == (lhs: ExactName, rhs: ExactName) -> Bool {
        lhs.text.hasSameBytes(as: rhs.text)
    }

    /// Hashes the UTF-8 bytes and their count (the count keeps a name from running into the
    /// next field of a composite key).
    public func hash(into hasher: inout Hasher) {
        let utf8 = text.utf8
        hasher.combine(utf8.count)
        let hashedInPlace: Void? = utf8.withContiguousStorageIfAvailable { bytes in
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
        if hashedInPlace == nil {
            for byte in utf8 { hasher.combine(byte) }
        }
    }

    public var description: String { text }
}

extension StringProtocol {
    /// Whether the UTF-8 bytes start with `prefix`'s. `hasPrefix` compares Characters, so a
    /// combining mark after the prefix would hide it, and an equivalent spelling would match.
    public func hasBytePrefix(_ prefix: String) -> Bool {
        utf8.starts(with: prefix.utf8)
    }

    /// Whether the UTF-8 bytes end with `suffix`'s (`hasSuffix` compares Characters).
    public func hasByteSuffix(_ suffix: String) -> Bool {
        utf8.count >= suffix.utf8.count && utf8.reversed().starts(with: suffix.utf8.reversed())
    }

    /// Whether both are the same sequence of Unicode scalars (the same UTF-8 bytes): the
    /// identity of a name. `==` is canonical equivalence, which is not. Lengths first: most
    /// comparisons (a path segment against a route's literal) differ there. Inlinable, so each
    /// caller gets it specialised for its string types.
    @inlinable
    public func hasSameBytes(as other: some StringProtocol) -> Bool {
        let (mine, theirs) = (utf8, other.utf8)
        guard mine.count == theirs.count else { return false }
        let compared = mine.withContiguousStorageIfAvailable { mineBytes in
            theirs.withContiguousStorageIfAvailable { theirBytes in mineBytes.elementsEqual(theirBytes) }
        }
        return (compared ?? nil) ?? mine.elementsEqual(theirs)
    }
}

extension Sequence<String> {
    /// Whether a member is the same sequence of Unicode scalars as `name` (`contains` would
    /// match a canonically equivalent spelling).
    public func containsExactly(_ name: String) -> Bool {
        contains { $0.hasSameBytes(as: name) }
    }
}
