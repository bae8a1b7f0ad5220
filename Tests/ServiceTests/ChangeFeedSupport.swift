import Foundation
import Registry
import TestSupport

/// One answer of `GET /api/changes`.
struct ChangesAnswer {
    let status: Int
    /// `kind type version` per event, oldest first.
    let events: [String]
    let cursor: String
    let more: Bool
    let response: RawHTTPResponse
}

extension Tenant {
    /// Reads the change feed after `cursor` (nil: from the beginning), waiting up to `wait`.
    func changes(after cursor: String? = nil, wait: Int = 0, pageSize: Int? = nil) throws -> ChangesAnswer {
        var target = "/api/changes?application=\(code)&wait=\(wait)"
        if let cursor { target += "&after=\(cursor)" }
        if let pageSize { target += "&pageSize=\(pageSize)" }
        let response = try request("GET", target)
        return try ChangesAnswer(response)
    }
}

extension ChangesAnswer {
    init(_ response: RawHTTPResponse) throws {
        self.response = response
        status = response.status
        guard response.status == 200 else {
            events = []
            cursor = ""
            more = false
            return
        }
        let json = try response.json()
        events = (json["events"]?.arrayValue ?? []).map { event in
            let type = event["attributes_type"]?.stringValue ?? "-"
            let version = event["version"]?.integerLexemeValue.map(String.init) ?? "-"
            return "\(event["kind"]?.stringValue ?? "?") \(type) \(version)"
        }
        cursor = json["cursor"]?.stringValue ?? ""
        more = json["more"]?.boolValue ?? false
    }
}

/// The value of an unlabelled gauge in a `/metrics` text, or nil.
func gauge(_ name: String, port: Int) throws -> Double? {
    let text = try RawHTTPClient.send(port: port, target: "/metrics").bodyText
    for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
        return Double(line.dropFirst(name.count + 1))
    }
    return nil
}
