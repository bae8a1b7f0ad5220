import Registry

/// Reads `Authorization: Api <token>` (scheme matched case-insensitively, RFC 7235; exactly
/// one token after it). The token is only ever hashed, never kept or logged.
enum Authorization {
    /// Longer values cannot be tokens this service issued.
    static let maxTokenLength = 512

    /// The SHA-256 of the presented token, or a 401 that does not echo the header.
    static func tokenHash(from header: String?) throws(RegistryError) -> [UInt8] {
        guard let header, !header.isEmpty else {
            throw .unauthenticated("Authorization header is missing; send 'Authorization: Api YOUR_API_TOKEN'")
        }
        // Header values are nearly always native strings, whose bytes are contiguous.
        let hashed = header.utf8.withContiguousStorageIfAvailable { hash(words: $0) }
            ?? Array(header.utf8).withUnsafeBufferPointer { hash(words: $0) }
        return try hashed.get()
    }

    /// `bytes` must be exactly two words separated by spaces (any number of them, and any at
    /// either end), the scheme and the token. Read in place: splitting the header into an array
    /// of words cost as much as hashing the token.
    private static func hash(words bytes: UnsafeBufferPointer<UInt8>) -> Result<[UInt8], RegistryError> {
        let space = UInt8(ascii: " ")
        func word(from start: Int) -> Range<Int> {
            var first = start
            while first < bytes.count, bytes[first] == space { first += 1 }
            var end = first
            while end < bytes.count, bytes[end] != space { end += 1 }
            return first..<end
        }
        let scheme = word(from: 0)
        let token = word(from: scheme.upperBound)
        guard !scheme.isEmpty, !token.isEmpty, word(from: token.upperBound).isEmpty,
            isAPIScheme(UnsafeBufferPointer(rebasing: bytes[scheme]))
        else {
            return .failure(.unauthenticated("Authorization header must be 'Api YOUR_API_TOKEN'"))
        }
        guard token.count <= maxTokenLength else {
            return .failure(.unauthenticated("API token is invalid"))
        }
        return .success(APIToken.hash(utf8: UnsafeBufferPointer(rebasing: bytes[token])))
    }

    /// `Api` in any letter case, compared without building a lowercased copy on every request.
    private static func isAPIScheme(_ scheme: UnsafeBufferPointer<UInt8>) -> Bool {
        scheme.count == 3 && zip(scheme, "api".utf8).allSatisfy { $0 | 0x20 == $1 }
    }
}
