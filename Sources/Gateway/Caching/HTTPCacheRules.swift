import Foundation

/// The HTTP caching rules (RFC 9111) a private cache applies to a REST response.
struct HTTPCacheRules: Sendable {
    /// The response's `Cache-Control` directives, names lower-cased, values unquoted.
    var directives: [String: String?] = [:]
    /// The names in the response's `Vary` field, lower-cased.
    var vary: [String] = []
    let headers: HTTPHeaders

    init(_ headers: HTTPHeaders) {
        self.headers = headers
        for value in headers.values(for: "Cache-Control") {
            for part in value.split(separator: ",") {
                let item = part.trimmingCharacters(in: .whitespaces)
                guard !item.isEmpty else { continue }
                let pieces = item.split(separator: "=", maxSplits: 1).map(String.init)
                let name = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
                let argument = pieces.count > 1
                    ? pieces[1].trimmingCharacters(in: .whitespaces)
                        .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    : nil
                if directives[name] == nil { directives[name] = .some(argument) }
            }
        }
        for value in headers.values(for: "Vary") {
            for part in value.split(separator: ",") {
                let name = part.trimmingCharacters(in: .whitespaces).lowercased()
                if !name.isEmpty, !vary.contains(name) { vary.append(name) }
            }
        }
    }

    /// `no-store` (RFC 9111 §5.2.2.5): never stored.
    var noStore: Bool { directives["no-store"] != nil }
    /// `no-cache` (§5.2.2.4): stored, but never used without revalidation.
    var noCache: Bool {
        directives["no-cache"] != nil || headers["Pragma"]?.lowercased() == "no-cache" && directives.isEmpty
    }
    /// `Vary: *` (§4.1): never matches a later request, so never stored.
    var varyAll: Bool { vary.contains("*") }

    /// Whether the response may be stored at all: only a complete, successful one (200, 203 or
    /// 204; a 206 is a part of a representation).
    func isStorable(status: Int) -> Bool {
        (status == 200 || status == 203 || status == 204) && !noStore && !varyAll
    }

    /// The freshness lifetime left at `now`: `max-age` (§5.2.2.1), else `Expires` minus `Date`
    /// (§5.3; an invalid `Expires` means already expired), less the `Age` the response already
    /// had; `nil` when the response gives none. `s-maxage` is for shared caches and is ignored.
    func freshness(now: Date) -> TimeInterval? {
        var lifetime: TimeInterval?
        if let maxAge = directives["max-age"] {
            lifetime = maxAge.flatMap { Int64($0) }.map { TimeInterval(max($0, 0)) } ?? 0
        } else if let expires = headers["Expires"] {
            if let date = HTTPDate.parse(expires) {
                let origin = headers["Date"].flatMap(HTTPDate.parse) ?? now
                lifetime = max(date.timeIntervalSince(origin), 0)
            } else {
                lifetime = 0
            }
        }
        guard let lifetime else { return nil }
        let age = headers["Age"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }.map(TimeInterval.init) ?? 0
        return max(lifetime - max(age, 0), 0)
    }

    /// The heuristic freshness of RFC 9111 §4.2.2 for a response with `Last-Modified` and no
    /// explicit freshness: a tenth of the time since it was modified, at most a day.
    func heuristicFreshness(now: Date) -> TimeInterval? {
        guard let modified = headers["Last-Modified"].flatMap(HTTPDate.parse) else { return nil }
        let served = headers["Date"].flatMap(HTTPDate.parse) ?? now
        return min(max(served.timeIntervalSince(modified), 0) / 10, 86_400)
    }

    /// The stored header fields updated by a `304` response (§4.3.4): its fields replace those of
    /// the same names, except the ones that describe the stored body.
    static func freshened(_ stored: HTTPHeaders, with notModified: HTTPHeaders) -> HTTPHeaders {
        let kept: Set<String> = ["content-length", "content-encoding", "transfer-encoding", "content-range"]
        var result = stored
        var replaced = Set<String>()
        for field in notModified {
            let name = field.name.lowercased()
            guard !kept.contains(name) else { continue }
            if replaced.insert(name).inserted { result.remove(field.name) }
            result.add(name: field.name, value: field.value)
        }
        return result
    }
}
