/// Content identity of a JSON text: two schema texts are the same content when they are equal
/// once the whitespace outside strings (space, tab, line feed, carriage return) is removed.
/// Everything else counts as written: key order (it orders a form's fields), number spellings
/// and string escapes, byte for byte.
///
/// The database computes the same form (`registry_canonical_json`, a regular expression) for
/// rows the service did not insert; tests check that the two agree. The scan mirrors it: a
/// string is kept whole, escapes included, from its opening quote to the first quote not
/// preceded by an escaping backslash.
public enum CanonicalJSON {
    /// The text without insignificant whitespace, as UTF-8 bytes.
    public static func canonicalBytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var inString = false
        var escaped = false
        for byte in text.utf8 {
            if inString {
                out.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                continue
            case UInt8(ascii: "\""):
                inString = true
                out.append(byte)
            default:
                out.append(byte)
            }
        }
        return out
    }

    /// SHA-256 of `canonicalBytes`: the stored `content_sha256` of a version.
    public static func contentHash(_ text: String) -> [UInt8] {
        SHA256.hash(bytes: canonicalBytes(text))
    }
}
