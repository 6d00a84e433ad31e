import Foundation
import GraphQLLanguage

/// Which header fields, query items and body fields a log must not show, and how to show a
/// request without them.
///
/// `standard` holds `Redaction`'s lists: the headers `Authorization`, `Proxy-Authorization`,
/// `Cookie`, `Set-Cookie` and `X-API-Key`; query items such as `access_token`, `token`,
/// `password` and `client_secret`; JSON and form fields such as `access_token`,
/// `refresh_token`, `id_token` and `password`. Add your own with `adding(...)`:
/// ```swift
/// let rules = RedactionRules.standard.adding(headers: ["X-Session"], bodyFields: ["pin"])
/// ```
/// Header names compare without case; query item and field names without case, `_`, `-` or `.`
/// (`accessToken` matches `access_token`).
public struct RedactionRules: Sendable, Hashable {
    /// Header names whose values are redacted.
    public private(set) var headers: Set<String>
    /// Query item names whose values are redacted (in the URL, and in `application/x-www-form-urlencoded` bodies).
    public private(set) var queryItems: Set<String>
    /// JSON (and form) field names whose values are redacted, at any depth.
    public private(set) var bodyFields: Set<String>

    private var headerKeys: Set<String>
    private var queryKeys: Set<String>
    private var fieldKeys: Set<String>

    /// The largest body shown; a larger one is described, not shown.
    public static let maxShownBodyBytes = 64 * 1024

    /// Creates rules from name lists.
    public init(headers: Set<String>, queryItems: Set<String>, bodyFields: Set<String>) {
        self.headers = headers
        self.queryItems = queryItems
        self.bodyFields = bodyFields
        headerKeys = Set(headers.map { $0.lowercased() })
        queryKeys = Set(queryItems.map(Self.key))
        fieldKeys = Set(bodyFields.map(Self.key))
    }

    /// `Redaction`'s lists.
    public static let standard = RedactionRules(
        headers: Redaction.sensitiveHeaders, queryItems: Redaction.sensitiveQueryItems,
        bodyFields: Redaction.sensitiveFields)

    /// These rules with more names.
    public func adding(headers: [String] = [], queryItems: [String] = [], bodyFields: [String] = []) -> RedactionRules {
        RedactionRules(headers: self.headers.union(headers), queryItems: self.queryItems.union(queryItems),
                       bodyFields: self.bodyFields.union(bodyFields))
    }

    /// Whether a header's value is hidden.
    public func isSensitiveHeader(_ name: String) -> Bool { headerKeys.contains(name.lowercased()) }

    /// Whether a query item's value is hidden.
    public func isSensitiveQueryItem(_ name: String) -> Bool {
        let key = Self.key(name)
        return queryKeys.contains(key) || fieldKeys.contains(key)
    }

    /// Whether a JSON or form field's value is hidden.
    public func isSensitiveField(_ name: String) -> Bool {
        let key = Self.key(name)
        return fieldKeys.contains(key) || queryKeys.contains(key)
    }

    /// The URL as text with user info, sensitive query items, and sensitive fields inside
    /// query values that are JSON (GraphQL `variables` sent by GET) replaced by `<redacted>`.
    public func redactedURL(_ url: URL) -> String {
        let text = url.absoluteString
        guard var components = URLComponents(string: text) else { return Redaction.redactedURL(url) }
        if components.user != nil { components.percentEncodedUser = "%3Credacted%3E" }
        if components.password != nil { components.percentEncodedPassword = "%3Credacted%3E" }
        if let query = components.percentEncodedQuery {
            components.percentEncodedQuery = redactedPairs(query)
        }
        return (components.string ?? Redaction.placeholder).replacingOccurrences(of: "%3Credacted%3E",
                                                                                with: Redaction.placeholder)
    }

    /// `name=value&…` (percent-encoded) with sensitive values replaced by `%3Credacted%3E`.
    func redactedPairs(_ encoded: String) -> String {
        encoded.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = Self.formDecoded(pair[..<equals])
            let value = pair[pair.index(after: equals)...]
            if isSensitiveQueryItem(name) { return "\(pair[..<equals])=%3Credacted%3E" }
            let decoded = Self.formDecoded(value)
            if decoded.hasPrefix("{") || decoded.hasPrefix("["), let json = try? JSONValue(parsing: decoded) {
                let redacted = redact(json)
                if redacted != json {
                    return "\(pair[..<equals])=" + PercentEncoding.escape(redacted.serialized(.compact))
                }
            }
            return String(pair)
        }.joined(separator: "&")
    }

    /// The header fields with sensitive values replaced.
    public func redactedHeaders(_ headers: HTTPHeaders) -> [HTTPHeaders.Field] {
        headers.map { field in
            HTTPHeaders.Field(name: field.name,
                              value: isSensitiveHeader(field.name) ? Redaction.placeholder : field.value)
        }
    }

    /// A JSON value with the values of sensitive fields, at any depth, replaced.
    public func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(var object):
            for index in object.members.indices {
                if isSensitiveField(object.members[index].key) {
                    object.members[index].value = .string(Redaction.placeholder)
                } else {
                    object.members[index].value = redact(object.members[index].value)
                }
            }
            return .object(object)
        case .array(let items):
            return .array(items.map(redact))
        default:
            return value
        }
    }

    /// The body as text safe to show, or `nil` when it cannot be shown safely: JSON with
    /// sensitive fields redacted, form bodies with sensitive fields redacted; anything else
    /// (text, multipart, binary, invalid JSON, over 64 KiB) is not shown.
    public func redactedBody(_ body: Data, contentType: String?) -> String? {
        guard !body.isEmpty else { return "" }
        guard body.count <= Self.maxShownBodyBytes else { return nil }
        let type = (contentType ?? "").lowercased()
        if type.hasPrefix("application/json") || type.contains("+json") || type.hasPrefix("application/graphql") {
            guard let json = try? JSONValue(parsing: [UInt8](body)) else { return nil }
            return redact(json).serialized(.compact)
        }
        if type.hasPrefix("application/x-www-form-urlencoded") {
            guard let text = String(data: body, encoding: .utf8) else { return nil }
            return redactedPairs(text).replacingOccurrences(of: "%3Credacted%3E", with: Redaction.placeholder)
        }
        return nil
    }

    /// A name compared without case, `_`, `-` or `.`.
    static func key(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != "." })
    }

    /// Percent-decoding with `+` as a space, as forms write it.
    static func formDecoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
