import Foundation
import Gateway

/// Which requests a stub answers: method, path, query, and optionally anything about the
/// request and its body.
///
/// The `body` predicate is the seam for richer matching: a GraphQL matcher decodes the body and
/// compares the operation name and variables.
public struct StubMatcher: Sendable, CustomStringConvertible {
    /// The method to match; any when `nil`.
    public var method: HTTPMethod?
    /// The path to match.
    public var path: PathMatch
    /// The query to match.
    public var query: QueryMatch
    /// Anything else about the request and its body bytes; nothing more when `nil`.
    public var body: (@Sendable (HTTPRequest, Data) -> Bool)?
    /// What the matcher matches, for the unmatched-request message.
    public var label: String

    /// Creates a matcher.
    ///
    /// - Parameters:
    ///   - method: the method; any when `nil`.
    ///   - path: the path; see `PathMatch.exactly(_:)` for how paths compare.
    ///   - query: the query; any by default.
    ///   - label: a description for messages; made from the other arguments when `nil`.
    ///   - body: a predicate on the request and its body bytes.
    public init(method: HTTPMethod? = nil, path: PathMatch = .any, query: QueryMatch = .any, label: String? = nil,
                body: (@Sendable (HTTPRequest, Data) -> Bool)? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.label = label ?? [method?.rawValue ?? "ANY", path.description, query.description]
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Whether the matcher answers `request`, whose body bytes are `body`.
    public func matches(_ request: HTTPRequest, body bytes: Data) -> Bool {
        if let method, method != request.method { return false }
        guard path.test(request.url), query.test(Self.queryItems(of: request.url)) else { return false }
        return body?(request, bytes) ?? true
    }

    /// What the matcher matches.
    public var description: String { label }

    static func queryItems(of url: URL) -> [URLQueryItem] {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    }

    /// How a request path is matched.
    public struct PathMatch: Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
        let test: @Sendable (URL) -> Bool
        /// What is matched, for messages.
        public let description: String

        /// Matches with a predicate on the request URL.
        public init(_ description: String, _ test: @escaping @Sendable (URL) -> Bool) {
            self.description = description
            self.test = test
        }

        /// `"users/42"` means `.exactly("users/42")`.
        public init(stringLiteral value: String) { self = .exactly(value) }

        /// Any path.
        public static var any: PathMatch { PathMatch("") { _ in true } }

        /// The path, compared percent-decoded and without leading or trailing slashes, equals
        /// `path` or ends with it at a segment boundary, so `"users/42"` matches
        /// `https://api.example.com/v1/users/42` without repeating the base path.
        public static func exactly(_ path: String) -> PathMatch {
            let wanted = trimmed(path.removingPercentEncoding ?? path)
            return PathMatch(wanted.isEmpty ? "/" : wanted) { url in
                let actual = trimmed(url.path.removingPercentEncoding ?? url.path)
                return actual == wanted || (wanted.isEmpty ? false : actual.hasSuffix("/" + wanted))
            }
        }

        private static func trimmed(_ path: String) -> String {
            String(path.drop { $0 == "/" }.reversed().drop { $0 == "/" }.reversed())
        }
    }

    /// How a request query is matched; names and values are compared percent-decoded.
    public struct QueryMatch: Sendable, CustomStringConvertible {
        let test: @Sendable ([URLQueryItem]) -> Bool
        /// What is matched, for messages.
        public let description: String

        /// Matches with a predicate on the decoded query items.
        public init(_ description: String, _ test: @escaping @Sendable ([URLQueryItem]) -> Bool) {
            self.description = description
            self.test = test
        }

        /// Any query, or none.
        public static var any: QueryMatch { QueryMatch("") { _ in true } }

        /// No query items at all.
        public static var empty: QueryMatch { QueryMatch("(no query)") { $0.isEmpty } }

        /// Exactly these items, in any order (repeated names count each time).
        public static func exactly(_ items: [URLQueryItem]) -> QueryMatch {
            let wanted = canonical(items)
            return QueryMatch("?" + describe(items)) { canonical($0) == wanted }
        }

        /// Exactly these names and values, in any order.
        public static func exactly(_ pairs: [String: String]) -> QueryMatch {
            exactly(pairs.map { URLQueryItem(name: $0.key, value: $0.value) })
        }

        /// At least these names and values, among any others.
        public static func including(_ pairs: [String: String]) -> QueryMatch {
            let items = pairs.map { URLQueryItem(name: $0.key, value: $0.value) }
            return QueryMatch("?" + describe(items) + "&…") { actual in
                items.allSatisfy { wanted in actual.contains { $0.name == wanted.name && $0.value == wanted.value } }
            }
        }

        private static func canonical(_ items: [URLQueryItem]) -> [String] {
            items.map { "\($0.name)\u{0}\($0.value ?? "\u{1}")" }.sorted()
        }

        private static func describe(_ items: [URLQueryItem]) -> String {
            items.sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
                .map { item in
                    let name = item.name
                    guard let value = item.value else { return name }
                    let sensitive = Redaction.sensitiveQueryItems.contains(name.lowercased())
                    return "\(name)=\(sensitive ? Redaction.placeholder : value)"
                }.joined(separator: "&")
        }
    }
}
