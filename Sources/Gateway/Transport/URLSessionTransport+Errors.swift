import Foundation

extension URLSessionTransport {
    static func connectionLost(_ request: HTTPRequest, received: Int, expected: Int) -> GatewayError {
        GatewayError(
            .transport,
            "connection lost: the body ended after \(received) of the \(expected) bytes its Content-Length announced",
            fix: "the server closed the connection early; retry, or check the server",
            request: request,
            underlying: URLError(.networkConnectionLost)
        )
    }

    /// Whether a mapped failure means the connection ended early (and not that the server's reply
    /// was malformed), so that a failure after the response head is a body cut off.
    static func isConnectionLoss(_ failure: GatewayError) -> Bool {
        guard failure.kind == .transport, let code = RetryPolicy.errorCode(of: failure) else { return false }
        return code == URLError.Code.networkConnectionLost.rawValue || code == URLError.Code.unknown.rawValue
    }

    /// Turns a platform error into a `GatewayError` (or `CancellationError`), keeping it as
    /// `underlying`.
    static func map(_ error: any Error, request: HTTPRequest, idleTimeout: Duration) -> any Error {
        if error is GatewayError || error.isCancellation { return error }
        let platformText = platformText(of: error)
        if let platformText, let fault = ServerFault(platformText: platformText) {
            return fault.error(request, platformText: platformText, platformError: error)
        }
        let urlError: URLError
        if let known = error as? URLError {
            urlError = known
        } else {
            let nsError = error as NSError
            let code: URLError.Code? = URLError.Code(rawValue: nsError.code)
            guard nsError.domain == NSURLErrorDomain, let code else {
                return GatewayError(.transport, "the request failed: \(GatewayError.summary(of: error))",
                                    request: request, underlying: error)
            }
            urlError = URLError(code)
        }
        let target = request.origin?.description ?? "the server"
        let said = platformText.map { " (the platform said: \"\($0)\")" } ?? ""
        func failure(_ kind: GatewayError.Kind, _ message: String, fix: String? = nil) -> GatewayError {
            GatewayError(kind, message, fix: fix, request: request, underlying: urlError)
        }
        switch urlError.code {
        case .timedOut:
            return failure(.timeout, "no response within the per-request timeout of \(GatewayError.readableSeconds(idleTimeout))",
                           fix: "raise the request's `timeout`, or check that \(target) answers")
        case .cancelled:
            return failure(.cancelled, "the request was cancelled before it finished")
        case .cannotConnectToHost:
            return failure(.transport, "could not connect to \(target)",
                           fix: "check that the server is running and that the URL's host and port are right")
        case .networkConnectionLost:
            return failure(.transport, "connection lost before the response was complete",
                           fix: "the server closed or reset the connection; retry, or check the server")
        case .cannotFindHost, .dnsLookupFailed:
            return failure(.transport, "the host of \(target) could not be resolved", fix: "check the URL's host name")
        case .notConnectedToInternet:
            return failure(.transport, "there is no network connection")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
             .clientCertificateRequired:
            return failure(.transport, "the TLS connection to \(target) failed",
                           fix: "check the server's certificate and the URL's scheme")
        case .badServerResponse, .cannotParseResponse:
            return failure(.transport, "the server's response is not valid HTTP")
        case .httpTooManyRedirects:
            return failure(.tooManyRedirects, "the platform stopped after too many redirects")
        case .unsupportedURL, .badURL:
            // The URL passed `checkSendable`, so the platform's complaint is about the reply.
            return failure(.transport, "the response from \(target) is not valid HTTP\(said)",
                           fix: "the server sent a malformed response; fix the server (sending the request again will not help)")
        case .dataLengthExceedsMaximum:
            return failure(.invalidRequest, "the platform refused the request body",
                           fix: "a GET request cannot carry a body here; use POST or move the parameters into the query")
        case .unknown:
            return failure(.transport, "the connection to \(target) failed: closed or reset before the response was complete\(said)",
                           fix: "retry, or check the server")
        default:
            return failure(.transport, "the request failed (URLError \(urlError.code.rawValue))\(said)")
        }
    }
}
