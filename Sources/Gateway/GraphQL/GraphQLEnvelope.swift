import Foundation
import GraphQLLanguage

/// A GraphQL response body read as the envelope `{data, errors, extensions}`, with clear errors
/// for everything else a server (or what stands in front of it) may send: an empty body, an
/// HTML page (a captive portal, a proxy's error page, a login page), text that is not JSON, or
/// JSON that is not an envelope.
struct GraphQLEnvelope {
    /// `data`; `nil` when absent (`.null` when present and null).
    var data: JSONValue?
    /// `errors`; empty when absent.
    var errors: [GraphQLError]
    /// `extensions`, when present and an object.
    var extensions: JSONObject?

    /// Whether `data` is absent or null.
    var hasNoData: Bool { data == nil || data == .null }

    /// Reads the envelope from `response`.
    ///
    /// - Throws: `GatewayError` of kind `.invalidResponse` saying what the body is instead.
    static func read(_ response: HTTPResponse, operation: String) throws -> GraphQLEnvelope {
        let body = response.body
        let contentType = response.headers["Content-Type"]
        let typeNote = contentType.map { " (Content-Type: \($0.prefix(100)))" } ?? ""
        let status = HTTPStatus.describe(response.status)
        guard let first = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw GatewayError(
                .invalidResponse, "expected a GraphQL response to \(operation), got an empty body (HTTP \(status))",
                fix: "check that the URL is the GraphQL endpoint", response: response)
        }
        if first == UInt8(ascii: "<") || contentType?.lowercased().contains("html") == true {
            throw GatewayError(
                .invalidResponse, "expected a GraphQL response to \(operation), got an HTML page\(typeNote) "
                    + "(HTTP \(status)); a captive portal, a proxy's error page or a login page answers like this",
                fix: "check the network (sign in to the Wi-Fi portal) and that the URL is the GraphQL endpoint",
                response: response)
        }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: [UInt8](body))
        } catch {
            throw GatewayError(
                .invalidResponse, "expected a GraphQL response to \(operation), got a body that is not JSON"
                    + "\(typeNote) (HTTP \(status)): \(error)",
                fix: "check that the URL is the GraphQL endpoint", response: response)
        }
        guard case .object(let object) = document else {
            throw GatewayError(
                .invalidResponse, "expected a GraphQL response object to \(operation), got \(document.kindDescription) "
                    + "(HTTP \(status))",
                fix: "check that the URL is the GraphQL endpoint", response: response)
        }
        var envelope = GraphQLEnvelope(data: object["data"], errors: [], extensions: object["extensions"]?.objectValue)
        switch object["errors"] {
        case nil, .null?: break
        case .array(let items)?: envelope.errors = items.map(GraphQLError.init(json:))
        case let other?:
            throw GatewayError(
                .invalidResponse, "the response to \(operation) has \"errors\" that is \(other.kindDescription), "
                    + "not a list (HTTP \(status))", response: response)
        }
        if envelope.data == nil, envelope.errors.isEmpty {
            throw GatewayError(
                .invalidResponse, "the response to \(operation) is JSON without \"data\" or \"errors\" "
                    + "(HTTP \(status)); it is not a GraphQL response",
                fix: "check that the URL is the GraphQL endpoint", response: response)
        }
        return envelope
    }

    /// Every error message in one line, at most `limit` of them.
    static func summary(_ errors: [GraphQLError], limit: Int = 100) -> String {
        var text = errors.prefix(limit).map(\.description).joined(separator: "; ")
        if errors.count > limit { text += "; and \(errors.count - limit) more (see graphQLErrors)" }
        return text
    }

    /// The error thrown for errors without data: `.unauthenticated` when one of them matches
    /// `unauthenticated`, else `.graphQLErrors`.
    static func failure(_ errors: [GraphQLError], operation: String, response: HTTPResponse,
                        unauthenticated: GraphQLErrorPredicate) -> GatewayError {
        let count = errors.count
        let refused = unauthenticated.matchesAny(errors)
        let status = response.isSuccess ? "" : " (HTTP \(HTTPStatus.describe(response.status)))"
        return GatewayError(
            refused ? .unauthenticated : .graphQLErrors,
            "the server answered \(operation) with \(count) GraphQL error\(count == 1 ? "" : "s") and no data"
                + "\(status): \(summary(errors))",
            fix: refused ? "sign in again, or check the credentials the auth stage attaches" : nil,
            response: response, apiError: errors)
    }
}
