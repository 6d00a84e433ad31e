import Foundation

extension HTTPRequest {
    /// Refuses a request HTTP cannot carry as asked, before anything is sent: the first thing
    /// every transport does with a request (`URLSessionTransport`, `AsyncHTTPClientTransport`).
    ///
    /// - Throws: `GatewayError` of kind `.invalidRequest` for a URL that is not absolute http or
    ///   https with a host, a header field HTTP does not allow, a GET or HEAD with a body, or a
    ///   body file that cannot be read.
    public func checkSendable() throws(GatewayError) {
        guard url.isHTTPWithHost else {
            throw GatewayError(.invalidRequest, "the URL \(Redaction.redactedURL(url)) is not an absolute http or https URL",
                               fix: "give the provider an http or https base URL with a host", request: self)
        }
        for field in headers {
            var name = field.name
            let bad = name.isEmpty || name.withUTF8 { $0.contains { $0 <= 32 || $0 == 58 || $0 >= 127 } }
                || HeaderValidation.breaksLine(field.value)
            if bad {
                throw GatewayError(.invalidRequest,
                                   "the header field \"\(field.name.prefix(60))\" has a name or value that HTTP does not allow",
                                   fix: "remove line breaks and control characters from header names and values",
                                   request: self)
            }
        }
        if method == .get || method == .head, let body, body.length > 0 {
            throw GatewayError(.invalidRequest, "a \(method) request cannot carry a body",
                               fix: "send the parameters in the query, or use POST", request: self)
        }
        if case .file(let file, _, _)? = body, !FileManager.default.isReadableFile(atPath: file.path) {
            throw GatewayError(.invalidRequest, "the body file \(file.path) cannot be read",
                               fix: "check that the file exists and is readable", request: self)
        }
    }
}

extension GatewayError {
    /// A response body past the request's `maxResponseBytes`: the transfer was stopped.
    ///
    /// - Parameters:
    ///   - request: the request answered, when the one that stopped reading knows it.
    ///   - limit: the limit in bytes.
    ///   - declared: the body length the response announced, when it announced one past the limit.
    public static func responseTooLarge(_ request: HTTPRequest?, limit: Int, declared: Int?) -> GatewayError {
        let what = declared.map { "its Content-Length is \($0) bytes" }
            ?? "more than that arrived, counted after decompression"
        return GatewayError(
            .responseTooLarge,
            "the response body is larger than the limit of \(limit) bytes (\(what)); the transfer was stopped",
            fix: "raise `maxResponseBytes` for this request if a body this large is expected",
            request: request
        )
    }

    /// No byte sent or received for the request's idle timeout.
    ///
    /// - Parameters:
    ///   - request: the request under way.
    ///   - idleTimeout: the timeout that passed.
    public static func idleTimeout(_ request: HTTPRequest, after idleTimeout: Duration) -> GatewayError {
        let server = request.origin?.description ?? "the URL"
        return GatewayError(
            .timeout,
            "no network activity for \(readableSeconds(idleTimeout)), the per-request timeout",
            fix: "raise the request's `timeout`, or check that the server at \(server) answers",
            request: request
        )
    }

    /// The call's whole deadline passed before the response was complete.
    ///
    /// - Parameters:
    ///   - request: the request under way.
    ///   - elapsed: how long the call had run.
    public static func deadlinePassed(_ request: HTTPRequest, after elapsed: Duration) -> GatewayError {
        GatewayError(
            .timeout,
            "the whole-call deadline passed after \(readableSeconds(elapsed)) before the response was complete",
            fix: "allow more time in the call's `deadline`",
            request: request
        )
    }

    /// Seconds as a person reads them: `0.5 s`, `30 s`.
    static func readableSeconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        let value = Double(whole) + Double(fraction) / 1e18
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
    }
}

extension URL {
    /// Whether this is an absolute http or https URL with a host: what a transport sends to, a
    /// path is joined onto and a redirect is followed to.
    var isHTTPWithHost: Bool {
        guard let scheme, scheme.caseInsensitiveEquals("http") || scheme.caseInsensitiveEquals("https") else {
            return false
        }
        return host?.isEmpty == false
    }
}
