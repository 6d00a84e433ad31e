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
        "code_verifier", "secret", "signature", "x-amz-signature", "x-amz-security-token",
    ]

    /// JSON and form field names whose values are always redacted (`RedactionRules` compares
    /// them without case, `_` or `-`, so `accessToken` and `access_token` are one name).
    public static let sensitiveFields: Set<String> = [
        "access_token", "accessToken", "refresh_token", "refreshToken", "id_token", "idToken", "password",
        "client_secret", "clientSecret", "token", "api_key", "secret", "passwd", "authorization", "code_verifier",
        "private_key",
    ]

    /// Whether a header's value must not be shown.
    public static func isSensitiveHeader(_ name: String) -> Bool { sensitiveHeaders.contains(name.lowercased()) }

    /// The URL as text with the values of sensitive query items (and of query items named like
    /// sensitive fields, compared as `RedactionRules` does) and any user info replaced.
    public static func redactedURL(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return (url.scheme.map { "\($0)://" } ?? "") + (url.host ?? "") + "/" + placeholder
        }
        if components.password != nil { components.password = placeholder }
        if components.user != nil { components.user = placeholder }
        // The percent-encoded setter traps on characters that need encoding, so the placeholder
        // goes in encoded and is decoded in the final text.
        let encodedPlaceholder = "%3Credacted%3E"
        if let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.map { item in
                let name = item.name.removingPercentEncoding ?? item.name
                guard RedactionRules.standard.isSensitiveQueryItem(name) else { return item }
                return URLQueryItem(name: item.name, value: encodedPlaceholder)
            }
        }
        guard let text = components.string else { return placeholder }
        return text.replacingOccurrences(of: encodedPlaceholder, with: placeholder)
    }

    /// How a reflection shows a value of an extension point (a stage, a token store): by its
    /// description for Gateway's own types, whose descriptions redact, and by its type's name
    /// for any other, which may hold a key and print it.
    static func reflectedName(_ value: Any) -> String {
        switch value {
        case is NoAuthentication, is BearerTokenAuthentication, is MemoryTokenStore, is FileTokenStore:
            String(describing: value)
        default:
            String(describing: type(of: value))
        }
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
