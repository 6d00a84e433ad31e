import Foundation

/// The one error type Gateway throws.
///
/// Each error has a `kind` (what went wrong), a `message` in plain words, an optional `fix`
/// (how to put it right), and the context the stages add on the way out: the endpoint or
/// operation name, the request, the response, the decoded API error body and the underlying
/// error. `CancellationError` is thrown as it is, never wrapped.
///
/// Neither `description` nor `dump()` of an error shows token material: requests print with
/// sensitive headers and query items redacted, and underlying errors are summarised.
public struct GatewayError: Error, Sendable, CustomStringConvertible, CustomReflectable {
    /// What kind of failure this is: an open set of static members.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The request could not be built (bad path, bad URL, bad header).
        public static let invalidRequest = Kind(rawValue: "invalid request")
        /// A parameter encoder failed.
        public static let encoding = Kind(rawValue: "encoding")
        /// The network failed: no connection, connection lost, DNS, TLS.
        public static let transport = Kind(rawValue: "transport")
        /// A per-request timeout or the whole-call deadline passed.
        public static let timeout = Kind(rawValue: "timeout")
        /// The response body was larger than the request's limit.
        public static let responseTooLarge = Kind(rawValue: "response too large")
        /// A redirect was refused (https to http, or a scheme that is not HTTP).
        public static let redirectRefused = Kind(rawValue: "redirect refused")
        /// More than the allowed number of redirects.
        public static let tooManyRedirects = Kind(rawValue: "too many redirects")
        /// The status code was not one the endpoint accepts.
        public static let status = Kind(rawValue: "status")
        /// The body could not be decoded into the expected type.
        public static let decoding = Kind(rawValue: "decoding")
        /// The response was not what the protocol requires (not JSON, not a GraphQL envelope).
        public static let invalidResponse = Kind(rawValue: "invalid response")
        /// The request was cancelled.
        public static let cancelled = Kind(rawValue: "cancelled")
        /// An interceptor failed the request.
        public static let intercepted = Kind(rawValue: "intercepted")
        /// Credentials could not be attached (the auth stage failed).
        public static let authentication = Kind(rawValue: "authentication")
        /// The request was retried as often as allowed and still did not succeed.
        public static let tooManyAttempts = Kind(rawValue: "too many attempts")
        /// A download's file could not be written or moved into place, or the server sent other
        /// bytes than those asked for.
        public static let download = Kind(rawValue: "download")
        /// A stream's consumer fell further behind the server than its limit allows (a
        /// subscription's events past `GraphQLSettings.subscriptionBufferLimit`).
        public static let consumerBehind = Kind(rawValue: "consumer behind")
    }

    /// What kind of failure this is.
    public var kind: Kind {
        get { held.fields.kind }
        set { unique().fields.kind = newValue }
    }
    /// What went wrong, in plain words.
    public var message: String {
        get { held.fields.message }
        set { unique().fields.message = newValue }
    }
    /// How to put it right, where that can be said.
    public var fix: String? {
        get { held.fields.fix }
        set { unique().fields.fix = newValue }
    }
    /// The endpoint path or GraphQL operation name.
    public var endpoint: String? {
        get { held.fields.endpoint }
        set { unique().fields.endpoint = newValue }
    }
    /// The request as it was sent (or about to be).
    public var request: HTTPRequest? {
        get { held.fields.request }
        set { unique().fields.request = newValue }
    }
    /// The response, when one arrived.
    public var response: HTTPResponse? {
        get { held.fields.response }
        set { unique().fields.response = newValue }
    }
    /// The endpoint's API error body decoded from a failed response, when the endpoint declares one.
    public var apiError: (any Sendable)? {
        get { held.fields.apiError }
        set { unique().fields.apiError = newValue }
    }
    /// The error underneath, when there is one.
    public var underlying: (any Error)? {
        get { held.fields.underlying }
        set { unique().fields.underlying = newValue }
    }

    /// The fields, held by reference: an error is one word wherever it is kept or passed (every
    /// step that can fail keeps room for one), and a copy is written only when changed.
    private var held: Held

    public init(
        _ kind: Kind,
        _ message: String,
        fix: String? = nil,
        endpoint: String? = nil,
        request: HTTPRequest? = nil,
        response: HTTPResponse? = nil,
        apiError: (any Sendable)? = nil,
        underlying: (any Error)? = nil
    ) {
        held = Held(Fields(kind: kind, message: message, fix: fix, endpoint: endpoint, request: request,
                           response: response, apiError: apiError, underlying: underlying))
    }

    /// The fields, copied first when another error shares them.
    private mutating func unique() -> Held {
        if !isKnownUniquelyReferenced(&held) { held = Held(held.fields) }
        return held
    }

    /// The status code of the response, when there was one.
    public var status: Int? { response?.status }

    /// The API error body as `T`, when it was decoded as that type.
    public func apiError<T>(as type: T.Type) -> T? { apiError as? T }

    /// One paragraph: the kind and message, where it happened, what lies underneath, and how to
    /// fix it (this error's fix, or else the one an underlying `GatewayError` gives; one at most).
    public var description: String {
        let (text, fix) = rendered()
        guard let fix else { return text }
        let endsSentence = text.last.map { $0 == "." || $0 == "?" || $0 == "!" } ?? false
        return text + (endsSentence ? " " : ". ") + "Fix: " + fix
    }

    /// The description without its fix, and the fix it ends with.
    private func rendered() -> (text: String, fix: String?) {
        var text = "\(kind): \(message)"
        if let endpoint { text += " [\(endpoint)]" }
        if let request { text += " (\(request))" }
        if let response, kind != .status { text += " → HTTP \(response.status)" }
        var fix = self.fix
        if let gateway = underlying as? GatewayError {
            let inner = gateway.rendered()
            text += "; underlying: " + inner.text
            fix = fix ?? inner.fix
        } else if let underlying, !(underlying is any RestatedInMessage) {
            let summary = GatewayError.summary(of: underlying)
            if !message.contains(summary) { text += "; underlying: " + summary }
        }
        return (text, fix)
    }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "kind": kind.rawValue,
            "message": message,
            "fix": fix as Any,
            "endpoint": endpoint as Any,
            "request": request.map(\.description) as Any,
            "status": response?.status as Any,
            "underlying": underlying.map(GatewayError.summary(of:)) as Any,
        ], displayStyle: .struct)
    }

    /// A short description of an underlying error that carries no URL or header values (nor
    /// the fix of a `GatewayError`, which the outer error's description gives).
    static func summary(of error: any Error) -> String {
        if let gateway = error as? GatewayError { return gateway.rendered().text }
        if let urlError = error as? URLError { return "URLError \(urlError.code.rawValue)" }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain || nsError.domain == "kCFErrorDomainCFNetwork" {
            return "\(nsError.domain) \(nsError.code)"
        }
        if error is DecodingError { return Redaction.describe(decodingError: error) }
        return String(describing: type(of: error))
    }
}

/// An error whose every detail the message of the `GatewayError` carrying it states already (a
/// list of variable problems or diagnostics, a SQLite failure): descriptions do not name it
/// again as `underlying`, which would only show the name of its type.
package protocol RestatedInMessage: Error {}

extension GatewayError {
    /// Wraps any error as a `GatewayError` of `kind` unless it already is one; `CancellationError`
    /// becomes `.cancelled`.
    static func wrap(_ error: any Error, as kind: Kind, _ message: String) -> GatewayError {
        if let gateway = error as? GatewayError { return gateway }
        if error.isCancellation { return GatewayError(.cancelled, "the request was cancelled", underlying: error) }
        return GatewayError(kind, message, underlying: error)
    }
}

extension GatewayError {
    private struct Fields: Sendable {
        var kind: Kind
        var message: String
        var fix: String?
        var endpoint: String?
        var request: HTTPRequest?
        var response: HTTPResponse?
        var apiError: (any Sendable)?
        var underlying: (any Error)?
    }

    /// An error's fields. Changed only through `unique()`, when no other error shares them, so
    /// a shared instance is never written (what makes it safe to send).
    private final class Held: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }
}
