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
        let parts = header.utf8.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        guard parts.count == 2, isAPIScheme(parts[0]) else {
            throw .unauthenticated("Authorization header must be 'Api YOUR_API_TOKEN'")
        }
        guard parts[1].count <= maxTokenLength else {
            throw .unauthenticated("API token is invalid")
        }
        return APIToken.hash(utf8: parts[1])
    }

    /// `Api` in any letter case, compared without building a lowercased copy on every request.
    private static func isAPIScheme(_ scheme: Substring.UTF8View) -> Bool {
        scheme.count == 3 && zip(scheme, "api".utf8).allSatisfy { $0 | 0x20 == $1 }
    }
}
