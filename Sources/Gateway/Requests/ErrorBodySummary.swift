import Foundation
import GraphQLLanguage

/// What an error message says about the body of a failed response: a short JSON summary with
/// sensitive fields redacted, or that the body is an HTML page.
enum ErrorBodySummary {
    /// The most characters of a body summary; a longer one is cut and ends with `…`.
    static let maxCharacters = 300

    /// The body as compact JSON with the values of sensitive fields (`RedactionRules.standard`)
    /// redacted, cut to `maxCharacters`; `nil` when the body is not JSON or too large to read.
    static func json(_ response: HTTPResponse) -> String? {
        guard !response.body.isEmpty, response.body.count <= RedactionRules.maxShownBodyBytes,
              let json = try? JSONValue(parsing: [UInt8](response.body))
        else { return nil }
        let text = RedactionRules.standard.redact(json).serialized(.compact)
        return text.count <= maxCharacters ? text : String(text.prefix(maxCharacters - 1)) + "…"
    }

    /// Whether the body is an HTML page: it starts with `<`, or its `Content-Type` says HTML.
    static func isHTML(_ response: HTTPResponse) -> Bool {
        guard let first = response.body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return false }
        return first == UInt8(ascii: "<") || response.headers["Content-Type"]?.lowercased().contains("html") == true
    }

    /// `the body is an HTML page, not <expected> (…)` for an HTML body, else `nil`.
    ///
    /// - Parameter expected: what the body should have been: `a GraphQL response`, `JSON`.
    static func htmlNote(_ response: HTTPResponse, expected: String) -> String? {
        guard isHTML(response) else { return nil }
        return "the body is an HTML page, not \(expected) (a proxy's or server's error page, a captive portal, "
            + "or a wrong URL)"
    }
}
