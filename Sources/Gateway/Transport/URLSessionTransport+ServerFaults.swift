import Foundation

extension URLSessionTransport {
    /// A failure the platform reports with a coarse code but a precise text: a reply that is not
    /// valid HTTP, headers past the platform's limits, a body that does not decompress, a TLS
    /// certificate that is not trusted.
    ///
    /// FoundationNetworking on Linux reports most of these as `URLError(.unknown)` or even
    /// `.unsupportedURL` (libcurl's "unsupported protocol" also means "the reply is not HTTP/1.x"),
    /// with libcurl's own text as the description; that text is what tells them apart.
    struct ServerFault {
        /// What the server did wrong, in plain words.
        var what: String
        /// How to put it right.
        var fix: String
        /// The code given to the error kept as `underlying`; none of these is retried.
        var code: URLError.Code

        /// Reads the platform's text; `nil` when it names none of the faults known here.
        ///
        /// The texts are libcurl's (7.88 and later); each rule matches a phrase that libcurl
        /// has kept across versions.
        init?(platformText text: String) {
            let lowered = text.lowercased()
            func has(_ phrase: String) -> Bool { lowered.contains(phrase) }
            let malformed = "the server sent a malformed response; fix the server (sending the request again will not help)"
            if has("http/0.9") {
                self.init("the reply does not start with an HTTP status line (an HTTP/0.9 reply, or not HTTP at all)",
                          malformed, .badServerResponse)
            } else if has("unsupported response code") || has("unsupported http version") || has("invalid status line")
                        || has("unsupported http/1 subversion") {
                self.init("its status line is not valid HTTP/1.x (expected something like \"HTTP/1.1 200 OK\")",
                          malformed, .badServerResponse)
            } else if has("nul byte in header") {
                self.init("a header line contains a NUL byte", malformed, .badServerResponse)
            } else if has("header without colon") {
                self.init("a header line has no colon between name and value", malformed, .badServerResponse)
            } else if has("too large response headers") || has("header") && has("too large") {
                self.init("its headers are larger than the platform accepts (300 KB in all, interim 1xx responses included)",
                          malformed, .badServerResponse)
            } else if lowered == "out of memory" {
                // libcurl's error for one header line past its 100 KB limit.
                self.init("a header line is longer than the platform accepts (100 KB)", malformed, .badServerResponse)
            } else if has("content unencoding") || has("content encoding") || has("unrecognized content encoding") {
                self.init("its body could not be decompressed as its Content-Encoding says", malformed,
                          .cannotDecodeContentData)
            } else if has("chunk") {
                self.init("its chunked transfer coding is malformed", malformed, .badServerResponse)
            } else if has("content-length") {
                self.init("its Content-Length is not valid", malformed, .badServerResponse)
            } else if has("weird server reply") {
                self.init("the reply is not valid HTTP", malformed, .badServerResponse)
            } else if has("certificate") || has("ssl peer") {
                self.init("its TLS certificate is not trusted",
                          "use a certificate issued for this host by a trusted authority, or check the URL's host",
                          .serverCertificateUntrusted)
            } else if has("ssl") || has("tls") {
                self.init("the TLS handshake failed", "check the server's TLS set-up and the URL's scheme and port",
                          .secureConnectionFailed)
            } else {
                return nil
            }
        }

        private init(_ what: String, _ fix: String, _ code: URLError.Code) {
            self.what = what
            self.fix = fix
            self.code = code
        }

        /// The error: kind `.transport`, the platform's text kept in the message and in the
        /// underlying `URLError`, whose code no retry policy treats as retryable.
        func error(_ request: HTTPRequest, platformText: String, platformError: any Error) -> GatewayError {
            let server = request.origin?.description ?? "the server"
            let isTLS = code == .serverCertificateUntrusted || code == .secureConnectionFailed
            let message = isTLS
                ? "the TLS connection to \(server) failed: \(what) (the platform said: \"\(platformText)\")"
                : "the response from \(server) is not valid HTTP: \(what) (the platform said: \"\(platformText)\")"
            let underlying = URLError(code, userInfo: [
                NSLocalizedDescriptionKey: platformText, NSUnderlyingErrorKey: platformError as NSError,
            ])
            return GatewayError(.transport, message, fix: fix, request: request, underlying: underlying)
        }
    }

    /// The platform's own description of an error, when it gave one beyond the code's generic text.
    static func platformText(of error: any Error) -> String? {
        let nsError = error as NSError
        guard let text = nsError.userInfo[NSLocalizedDescriptionKey] as? String else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : String(trimmed.prefix(300))
    }
}

extension URLSessionTransport {
    /// The `Content-Length` field's value when it is not a length a body can have: not a
    /// decimal number, differing repeated values, or more digits than any transfer (19 or more);
    /// `nil` when the field is absent or valid.
    ///
    /// The platform ignores such a field and reads until the connection closes, which would turn a
    /// short body into a success.
    static func invalidContentLength(in headers: HTTPHeaders) -> String? {
        guard let value = headers["Content-Length"] else { return nil }
        let values = value.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let isNumber = values.allSatisfy { text in
            !text.isEmpty && text.utf8.count <= 18 && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
        guard isNumber, Set(values).count == 1 else { return String(value.prefix(60)) }
        return nil
    }

    /// The error for a `Content-Length` that is not a valid length.
    static func invalidContentLength(_ value: String, request: HTTPRequest) -> GatewayError {
        let server = request.origin?.description ?? "the server"
        return GatewayError(
            .transport,
            "the response from \(server) is not valid HTTP: its Content-Length \"\(value)\" is not a valid length "
                + "(a decimal number of bytes below 10^18)",
            fix: "the server sent a malformed response; fix the server (sending the request again will not help)",
            request: request, underlying: URLError(.badServerResponse))
    }
}
