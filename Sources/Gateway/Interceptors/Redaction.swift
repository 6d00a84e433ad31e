import Foundation

/// What Gateway never prints: header values, query items and JSON fields that carry secrets.
public enum Redaction {
    /// What a redacted value prints as.
    public static let placeholder = "<redacted>"

    /// Header names whose values are always redacted (compared without case).
    public static let sensitiveHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
    ]

    /// Query item names whose values are always redacted (compared without case).
    public static let sensitiveQueryItems: Set<String> = [
        "access_token", "refresh_token", "id_token", "token", "password", "client_secret", "api_key", "apikey",
    ]

    /// JSON field names whose values are always redacted.
    public static let sensitiveFields: Set<String> = [
        "access_token", "accessToken", "refresh_token", "refreshToken", "id_token", "idToken", "password",
        "client_secret", "clientSecret",
    ]

    /// Whether a header's value must not be shown.
    public static func isSensitiveHeader(_ name: String) -> Bool { sensitiveHeaders.contains(name.lowercased()) }

    /// The URL as text with the values of sensitive query items and any user info replaced.
    public static func redactedURL(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        if components.password != nil { components.password = placeholder }
        if components.user != nil { components.user = placeholder }
        // The placeholder is not valid percent-encoded text (URLComponents traps on it), so the
        // query and fragment are joined back as text.
        guard let items = components.percentEncodedQueryItems else { return components.string ?? url.absoluteString }
        let query = items.map { item -> String in
            let name = item.name.removingPercentEncoding ?? item.name
            guard let value = item.value else { return item.name }
            return "\(item.name)=\(sensitiveQueryItems.contains(name.lowercased()) ? placeholder : value)"
        }.joined(separator: "&")
        let fragment = components.percentEncodedFragment
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        let base = components.string ?? url.absoluteString
        return base + "?" + query + (fragment.map { "#" + $0 } ?? "")
    }

    /// A decoding error described by its coding path and kind only, never by the values it saw.
    static func describe(decodingError error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: type(of: error)) }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "the top level" : String(keys.drop { $0 == "." })
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "expected \(type) at \(path(context))"
        case .valueNotFound(let type, let context):
            return "expected a \(type) value at \(path(context)), found null"
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "missing key \"\(key.stringValue)\"" + (context.codingPath.isEmpty ? "" : " in \(parent)")
        case .dataCorrupted(let context):
            return "data corrupted at \(path(context))"
        @unknown default:
            return "decoding failed"
        }
    }
}
