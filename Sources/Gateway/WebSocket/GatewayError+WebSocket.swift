import Foundation

extension GatewayError.Kind {
    /// The platform cannot do what was asked (a URLSession without WebSocket support); the
    /// error's fix names the alternative.
    public static let unsupported = GatewayError.Kind(rawValue: "unsupported")
}

extension GatewayError {
    /// A URL a WebSocket cannot be opened to.
    ///
    /// - Parameter url: the URL given.
    public static func notWebSocketURL(_ url: URL) -> GatewayError {
        GatewayError(.invalidRequest,
                     "the URL \(Redaction.redactedURL(url)) is not an absolute ws, wss, http or https URL with a host",
                     fix: "give the subscription endpoint as ws://host/path or wss://host/path")
    }

    /// The handshake was answered with `status` instead of `101 Switching Protocols`.
    ///
    /// - Parameters:
    ///   - response: the server's answer.
    ///   - url: the URL connected to.
    public static func webSocketHandshakeRefused(_ response: HTTPResponse, url: URL) -> GatewayError {
        GatewayError(.status,
                     "the server at \(Redaction.redactedURL(url)) answered the WebSocket handshake with HTTP "
                        + "\(response.status) instead of 101 Switching Protocols",
                     fix: "check the subscription endpoint's path, and that the server serves WebSockets there",
                     response: response)
    }

    /// The connection is closed or was lost: a message cannot be sent.
    public static func webSocketClosed(_ detail: String) -> GatewayError {
        GatewayError(.transport, "the WebSocket connection is closed: \(detail)")
    }
}

extension URL {
    /// The URL with `http` taken as `ws` and `https` as `wss`; `nil` when the scheme is none of
    /// the four or the host is missing.
    package var webSocketURL: URL? {
        guard var parts = URLComponents(url: self, resolvingAgainstBaseURL: false),
              let scheme = parts.scheme?.lowercased(), parts.host?.isEmpty == false
        else { return nil }
        switch scheme {
        case "ws", "wss": parts.scheme = scheme
        case "http": parts.scheme = "ws"
        case "https": parts.scheme = "wss"
        default: return nil
        }
        return parts.url
    }
}
