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
        let parts = header.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "api" else {
            throw .unauthenticated("Authorization header must be 'Api YOUR_API_TOKEN'")
        }
        guard parts[1].utf8.count <= maxTokenLength else {
            throw .unauthenticated("API token is invalid")
        }
        return APIToken.hash(String(parts[1]))
    }
}
