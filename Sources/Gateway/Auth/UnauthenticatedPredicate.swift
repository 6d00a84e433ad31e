import Foundation
import GraphQLLanguage

/// Says whether a response means "not authenticated": the credential sent was refused and a
/// refresh may help.
///
/// The default, `.standard`, recognises both kinds of backend: an HTTP `401`, and a GraphQL
/// response (servers send it with `200`) whose `errors` hold an error with
/// `extensions.code == "UNAUTHENTICATED"`. The body is parsed only when it looks like JSON and
/// contains the code, so ordinary responses cost a byte scan.
///
/// ```swift
/// struct MyAuthenticator: Authenticator {
///     func isUnauthenticated(_ response: HTTPResponse, for request: HTTPRequest) -> Bool {
///         UnauthenticatedPredicate.status(401, 419).or(.graphQLErrorCode("AUTH_REQUIRED"))
///             .matches(response, for: request)
///     }
///     // …
/// }
/// ```
public struct UnauthenticatedPredicate: Sendable, CustomStringConvertible {
    private let test: @Sendable (HTTPResponse, HTTPRequest) -> Bool
    /// What the predicate recognises, for messages.
    public let description: String

    /// Creates a predicate from a test on the response and the request it answered.
    ///
    /// - Parameters:
    ///   - description: what it recognises, for messages.
    ///   - test: `true` when the response means the credential was refused.
    public init(_ description: String, _ test: @escaping @Sendable (HTTPResponse, HTTPRequest) -> Bool) {
        self.description = description
        self.test = test
    }

    /// Whether `response` to `request` means "not authenticated".
    public func matches(_ response: HTTPResponse, for request: HTTPRequest) -> Bool { test(response, request) }

    /// A predicate that holds when this one or `other` does.
    public func or(_ other: UnauthenticatedPredicate) -> UnauthenticatedPredicate {
        let first = test, second = other.test
        return UnauthenticatedPredicate("\(description) or \(other.description)") { first($0, $1) || second($0, $1) }
    }

    /// HTTP 401, or a GraphQL error with `extensions.code == "UNAUTHENTICATED"`.
    public static let standard = status(401).or(graphQLErrorCode("UNAUTHENTICATED"))

    /// Any of these status codes.
    public static func status(_ codes: Int...) -> UnauthenticatedPredicate {
        let codes = Set(codes)
        return UnauthenticatedPredicate("HTTP " + codes.sorted().map(String.init).joined(separator: ", ")) {
            response, _ in codes.contains(response.status)
        }
    }

    /// A JSON body whose top-level `errors` list holds an error whose `extensions.code` is `code`
    /// (the GraphQL convention, whatever the status).
    public static func graphQLErrorCode(_ code: String) -> UnauthenticatedPredicate {
        UnauthenticatedPredicate("a GraphQL error \(code)") { response, _ in
            GraphQLErrorScan.hasErrorCode(code, in: response.body)
        }
    }

    /// A JSON body whose top-level `errors` list holds an error `predicate` recognises, whatever
    /// the status. Pass the provider's GraphQL predicate so that the refresh and the error kind
    /// agree on what "not authenticated" means:
    ///
    /// ```swift
    /// config.graphQL.unauthenticated = .code("TOKEN_EXPIRED")
    /// let authenticator = RefreshTokenAuthenticator(
    ///     path: "auth/refresh", unauthenticated: .status(401).or(.graphQLErrors(.code("TOKEN_EXPIRED"))))
    /// ```
    public static func graphQLErrors(_ predicate: GraphQLErrorPredicate) -> UnauthenticatedPredicate {
        UnauthenticatedPredicate("a GraphQL error with \(predicate.description)") { response, _ in
            GraphQLErrorScan.errors(in: response.body).contains { predicate.matches($0) }
        }
    }
}

/// Finds an error code in a GraphQL response body without parsing bodies that cannot hold it.
enum GraphQLErrorScan {
    /// Whether `body` is a JSON object whose `errors` hold one with `extensions.code == code`.
    static func hasErrorCode(_ code: String, in body: Data) -> Bool {
        let needle = Array(code.utf8)
        guard !needle.isEmpty, looksLikeJSONObject(body), contains(needle, in: body) else { return false }
        guard let document = try? JSONValue(parsing: [UInt8](body)), let errors = document["errors"]?.arrayValue
        else { return false }
        return errors.contains { $0["extensions"]?["code"]?.stringValue == code }
    }

    /// The errors of a GraphQL response body; none when it is not a JSON object with `errors`.
    static func errors(in body: Data) -> [GraphQLError] {
        guard looksLikeJSONObject(body), contains(Array("errors".utf8), in: body),
              let document = try? JSONValue(parsing: [UInt8](body)), let errors = document["errors"]?.arrayValue
        else { return [] }
        return errors.map(GraphQLError.init(json:))
    }

    /// Whether the first byte that is not white space is `{`.
    static func looksLikeJSONObject(_ body: Data) -> Bool {
        for byte in body {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "{"): return true
            default: return false
            }
        }
        return false
    }

    /// Whether `needle` occurs in `body`.
    static func contains(_ needle: [UInt8], in body: Data) -> Bool {
        guard let first = needle.first, body.count >= needle.count else { return false }
        return body.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            let buffer = bytes.bindMemory(to: UInt8.self)
            let last = buffer.count - needle.count
            var index = 0
            while index <= last {
                guard let found = buffer[index...last].firstIndex(of: first) else { return false }
                var matched = true
                for offset in 1..<needle.count where buffer[found + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return true }
                index = found + 1
            }
            return false
        }
    }
}
