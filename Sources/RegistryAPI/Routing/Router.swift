import HTTPServer
import Registry

/// Matches a raw request path against route templates such as
/// `/api/live_activity_schemas/{attributesType}/{version}:check`.
///
/// Custom methods use the AIP-136 syntax (`…/{version}:check`, `…:validate`): a colon suffix
/// on the last segment. A parameter in the last position therefore never matches a segment
/// containing `:`, so `GET …/3:check` finds the POST-only route and answers 405, not a
/// confusing "invalid version".
struct Router: Sendable {
    /// What a match yields: the route and its parameters, still percent-encoded.
    struct Match {
        let route: Route
        let rawParameters: [String: String]
    }

    enum Outcome {
        case matched(Match)
        case methodNotAllowed(allow: [String])
        case notFound
    }

    let routes: [Route]
    /// The positions in `routes` of the templates with each number of segments, in table
    /// order: a path is tried only against templates as long as it is, and no route is
    /// copied until one matches.
    private let positionsBySegmentCount: [Int: [Int]]

    init(routes: [Route]) {
        self.routes = routes
        positionsBySegmentCount = Dictionary(grouping: routes.indices) { routes[$0].template.segments.count }
    }

    func match(method: String, path: String) -> Outcome {
        guard path.hasBytePrefix("/") else { return .notFound }
        // Split as bytes: splitting by Character would walk grapheme clusters for nothing.
        let segments = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
            .map { Substring($0) }
        guard let positions = positionsBySegmentCount[segments.count] else { return .notFound }
        var allowed: [String] = []
        // The first template that matches decides the resource: a literal listed earlier
        // (`…/latest`) hides a parameter template (`…/{version}`) that would also match, so
        // its methods, not the parameter route's, are the ones allowed.
        var resource: String?
        for position in positions {
            guard let parameters = routes[position].template.match(segments) else { continue }
            let route = routes[position]
            if let resource, !resource.hasSameBytes(as: route.template.text) { continue }
            resource = route.template.text
            if route.method.hasSameBytes(as: method) || (method.hasSameBytes(as: "HEAD") && route.method.hasSameBytes(as: "GET")) {
                return .matched(Match(route: route, rawParameters: parameters))
            }
            if !allowed.contains(where: { $0.hasSameBytes(as: route.method) }) { allowed.append(route.method) }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allow: allowed)
    }
}

/// A parsed route template.
struct PathTemplate: Sendable {
    enum Segment: Sendable {
        case literal(String)
        /// A parameter, optionally followed by a `:action` suffix.
        case parameter(name: String, action: String?)
    }

    let text: String
    let segments: [Segment]
    /// How many segments are parameters: the size of a match's dictionary, made once.
    let parameterCount: Int

    init(_ text: String) {
        self.text = text
        segments = text.split(separator: "/").map { piece in
            guard piece.hasPrefix("{"), let close = piece.firstIndex(of: "}") else { return .literal(String(piece)) }
            let name = String(piece[piece.index(after: piece.startIndex)..<close])
            let rest = piece[piece.index(after: close)...]
            return .parameter(name: name, action: rest.isEmpty ? nil : String(rest))
        }
        parameterCount = segments.count { if case .parameter = $0 { true } else { false } }
    }

    /// The parameters of `raw` when it matches. Literals and action suffixes are compared
    /// first: most templates fail there, and then no parameter has been copied.
    func match(_ raw: [Substring]) -> [String: String]? {
        guard raw.count == segments.count else { return nil }
        for (index, (segment, piece)) in zip(segments, raw).enumerated() {
            switch segment {
            case .literal(let literal):
                guard piece.hasSameBytes(as: literal) else { return nil }
            case .parameter(_, let action?):
                guard piece.hasByteSuffix(action) else { return nil }
            case .parameter(_, nil):
                if index == segments.count - 1, piece.utf8.contains(UInt8(ascii: ":")) { return nil }
            }
        }
        var parameters = [String: String](minimumCapacity: parameterCount)
        for (segment, piece) in zip(segments, raw) {
            guard case .parameter(let name, let action) = segment else { continue }
            parameters[name] = action.map { String(Substring(piece.utf8.dropLast($0.utf8.count))) } ?? String(piece)
        }
        return parameters
    }
}
