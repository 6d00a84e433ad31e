import Foundation
import Gateway

extension AsyncHTTPClientTransport {
    /// Where a redirect chain stands: how many follow-ups so far, and whether it has left the
    /// origin of the first request (after which credentials are never sent again, even if a
    /// later hop comes back).
    struct RedirectChain: Sendable {
        /// The first request's URL; its origin is worked out only when a redirect needs it.
        let firstURL: URL
        var count = 0
        var leftOrigin = false

        init(from request: HTTPRequest) { firstURL = request.url }

        var origin: Origin? { Origin(firstURL) }
    }

    /// Header fields that carry credentials and never follow a redirect to another origin.
    static let credentialHeaders = ["Authorization", "Cookie", "Proxy-Authorization"]

    /// The request to send next for a redirect response, or `nil` when the response is final.
    ///
    /// The rules are `URLSessionTransport`'s: 301, 302, 303, 307 and 308 with a `Location` are
    /// followed; 303 (and 301/302 after a POST) continue as GET without the body; 307 and 308
    /// keep the method and the body. A redirect to another scheme, host or port drops
    /// `Authorization`, `Cookie` and `Proxy-Authorization`; https to http and non-HTTP schemes
    /// are refused; more than `maxRedirects` follow-ups end with `.tooManyRedirects`.
    static func redirect(
        after exchange: Exchange,
        of request: HTTPRequest,
        chain: inout RedirectChain,
        maxRedirects: Int
    ) throws(GatewayError) -> HTTPRequest? {
        guard [301, 302, 303, 307, 308].contains(exchange.status),
            let location = exchange.headers["Location"]?.trimmingCharacters(in: .whitespaces), !location.isEmpty
        else { return nil }
        let response = HTTPResponse(status: exchange.status, headers: exchange.headers, url: request.url)
        guard let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
            let scheme = target.scheme?.lowercased()
        else {
            throw GatewayError(
                .invalidResponse, "the redirect's Location \"\(location.prefix(200))\" is not a valid URL",
                request: request, response: response)
        }
        guard scheme == "http" || scheme == "https", target.host?.isEmpty == false else {
            throw GatewayError(
                .redirectRefused, "a redirect to a \(scheme) URL was refused; only http and https are followed",
                request: request, response: response)
        }
        if request.url.scheme?.lowercased() == "https" && scheme == "http" {
            throw GatewayError(
                .redirectRefused, "a redirect from https to http was refused",
                fix: "use the https URL the server should offer, or ask its owner to fix the redirect",
                request: request, response: response)
        }
        chain.count += 1
        guard chain.count <= maxRedirects else {
            throw GatewayError(
                .tooManyRedirects,
                "more than \(maxRedirects) redirects; the last went to \(Redaction.redactedURL(target))",
                fix: "check the server for a redirect loop", request: request, response: response)
        }

        var next = request
        next.url = target
        let becomesGet =
            exchange.status == 303 ? request.method != .head : (exchange.status <= 302 && request.method == .post)
        if becomesGet {
            next.method = .get
            next.body = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"] {
                next.headers.remove(name)
            }
        }
        if chain.leftOrigin || Origin(target) != chain.origin {
            chain.leftOrigin = true
            for name in credentialHeaders { next.headers.remove(name) }
        }
        return next
    }
}
