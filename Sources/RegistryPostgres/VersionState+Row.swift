import Registry

extension VersionState {
    /// How many columns `init(row:from:)` reads.
    static let columnCount = 10

    /// Reads the state columns every version statement selects after its own, from `first`
    /// on, in this order: state, deprecation message, sunset (RFC 3339), deprecated at (RFC
    /// 3339), deprecated at (Unix seconds), sunset (HTTP-date), deprecated by, disable reason,
    /// disabled at (RFC 3339), disabled by.
    init(row: PGRow, from first: Int) throws(PGError) {
        switch try row.string(first) {
        case "active":
            self = .active
        case "deprecated":
            guard let seconds = Int64(try row.string(first + 4)) else {
                throw PGError(kind: .unexpectedResult, debugDetail: "column \(first + 4) is not a bigint")
            }
            self = .deprecated(
                Deprecation(
                    message: try row.string(first + 1), sunset: try row.optionalString(first + 2), at: try row.string(first + 3),
                    atUnixSeconds: seconds, sunsetHTTPDate: try row.optionalString(first + 5), by: try row.string(first + 6)))
        case "disabled":
            self = .disabled(Disablement(reason: try row.string(first + 7), at: try row.string(first + 8), by: try row.string(first + 9)))
        case let other:
            throw PGError(kind: .unexpectedResult, debugDetail: "unknown version state \(other)")
        }
    }
}
