import Foundation

/// The redirect rules every Gateway transport follows, for transports that follow redirects
/// themselves (`URLSessionTransport`, `AsyncHTTPClientTransport`).
///
/// 301, 302, 303, 307 and 308 with a `Location` are followed; 303 (and 301/302 after a POST)
/// continue as GET without the body; 307 and 308 keep the method and the body. A redirect to
/// another scheme, host or port drops `Authorization`, `Cookie` and `Proxy-Authorization`, and
/// once a chain has left the first request's origin they never come back, even if a later hop
/// returns. https to http and non-HTTP schemes are refused (`.redirectRefused`); more than
/// `maxRedirects` follow-ups end with `.tooManyRedirects`.
///
/// ```swift
/// var chain = RedirectChain(from: request, maxRedirects: 20)
/// var current = request
/// while true {
///     let head = try await send(current)
///     guard let next = try chain.next(status: head.status, headers: head.headers, after: current) else { break }
///     current = next
/// }
/// ```
public struct RedirectChain: Sendable {
    /// Header fields that carry credentials and never follow a redirect to another origin.
    public static let credentialHeaders = ["Authorization", "Cookie", "Proxy-Authorization"]

    /// How many follow-ups are allowed.
    public let maxRedirects: Int
    /// How many redirects have been followed so far.
    public private(set) var count = 0
    /// Whether the chain has left the first request's origin.
    public private(set) var hasLeftOrigin = false
    /// The first request's URL; its origin is worked out only when a redirect needs it.
    private let firstURL: URL

    /// Starts a chain at `request`.
    ///
    /// - Parameters:
    ///   - request: the first request of the chain.
    ///   - maxRedirects: how many follow-ups are allowed.
    public init(from request: HTTPRequest, maxRedirects: Int) {
        firstURL = request.url
        self.maxRedirects = maxRedirects
    }

    /// The request to send next for a response, or `nil` when the response is final.
    ///
    /// - Parameters:
    ///   - status: the response's status.
    ///   - headers: the response's header fields.
    ///   - responseURL: the URL that answered, when the platform tells it; `request.url` if not.
    ///   - request: the request that was answered.
    /// - Throws: `GatewayError` of kind `.invalidResponse` (a `Location` that is not a URL),
    ///   `.redirectRefused` or `.tooManyRedirects`.
    public mutating func next(
        status: Int, headers: HTTPHeaders, responseURL: URL? = nil, after request: HTTPRequest
    ) throws(GatewayError) -> HTTPRequest? {
        guard [301, 302, 303, 307, 308].contains(status),
              let location = headers["Location"]?.trimmingCharacters(in: .whitespaces), !location.isEmpty
        else { return nil }
        let response = HTTPResponse(status: status, headers: headers, url: responseURL ?? request.url)
        guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
              let scheme = target.scheme?.lowercased()
        else {
            throw GatewayError(.invalidResponse, "the redirect's Location \"\(location.prefix(200))\" is not a valid URL",
                               request: request, response: response)
        }
        guard target.isHTTPWithHost else {
            throw GatewayError(.redirectRefused,
                               "a redirect to a \(scheme) URL was refused; only http and https are followed",
                               request: request, response: response)
        }
        if request.url.scheme?.lowercased() == "https" && scheme == "http" {
            throw GatewayError(.redirectRefused, "a redirect from https to http was refused",
                               fix: "use the https URL the server should offer, or ask its owner to fix the redirect",
                               request: request, response: response)
        }
        count += 1
        guard count <= maxRedirects else {
            throw GatewayError(.tooManyRedirects,
                               "more than \(maxRedirects) redirects; the last went to \(Redaction.redactedURL(target))",
                               fix: "check the server for a redirect loop", request: request, response: response)
        }
        var next = request
        next.url = target
        let becomesGet = status == 303 ? request.method != .head : (status <= 302 && request.method == .post)
        if becomesGet {
            next.method = .get
            next.body = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"] {
                next.headers.remove(name)
            }
        }
        if hasLeftOrigin || Origin(target) != Origin(firstURL) {
            hasLeftOrigin = true
            for name in Self.credentialHeaders { next.headers.remove(name) }
        }
        return next
    }
}
