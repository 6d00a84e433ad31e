import AsyncHTTPClient
import Foundation
import Gateway
import NIOCore
import NIOHTTP1
import NIOPosix

extension AsyncHTTPClientTransport {
    static func connectionLost(_ request: HTTPRequest, received: Int, expected: Int?) -> GatewayError {
        let announced = expected.map { " of the \($0) bytes its Content-Length announced" } ?? ""
        return GatewayError(
            .transport,
            "connection lost: the body ended after \(received) bytes\(announced)",
            fix: "the server closed or reset the connection mid-body; retry, or check the server",
            request: request,
            underlying: HTTPClientError.remoteConnectionClosed
        )
    }

    /// Turns a client error into a `GatewayError` (or `CancellationError`), keeping it as `underlying`.
    ///
    /// - Parameter progress: the body received so far, once the response head has arrived: a
    ///   connection failure after it means the body was cut off.
    static func map(
        _ error: any Error, request: HTTPRequest, idleTimeout: Duration, elapsed: Duration,
        progress: (received: Int, expected: Int?)?
    ) -> any Error {
        if error is GatewayError { return error }
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        let target = request.origin?.description ?? "the server"
        func failure(_ kind: GatewayError.Kind, _ message: String, fix: String? = nil) -> GatewayError {
            GatewayError(kind, message, fix: fix, request: request, underlying: error)
        }
        if let clientError = error as? HTTPClientError {
            switch clientError {
            case .cancelled:
                return CancellationError()
            case .readTimeout, .writeTimeout:
                return GatewayError.idleTimeout(request, after: idleTimeout).with(underlying: error)
            case .deadlineExceeded:
                return GatewayError.deadlinePassed(request, after: elapsed).with(underlying: error)
            case .connectTimeout, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout:
                return failure(
                    .timeout, "could not connect to \(target) in time",
                    fix: "check that the server is running and reachable, or raise `connectTimeout`")
            case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath:
                return failure(
                    .invalidRequest, "the URL cannot be requested", fix: "use an absolute http or https URL with a host"
                )
            case .bodyLengthMismatch:
                return failure(
                    .invalidRequest, "the request body's length differs from the length given",
                    fix: "give the file body's exact length")
            case .alreadyShutdown:
                return failure(
                    .invalidRequest, "the transport's client has been shut down",
                    fix: "do not send through a transport after calling `shutdown()`")
            default:
                if clientError.description.contains("unsupportedScheme")
                    || clientError.description.contains("invalidHeaderField")
                {
                    return failure(.invalidRequest, "the request cannot be sent: \(clientError)")
                }
            }
        }
        if let progress {
            // The head arrived, so whatever failed cut the body off.
            return connectionLost(request, received: progress.received, expected: progress.expected)
                .with(underlying: error)
        }
        if error is NIOConnectionError || (error as? IOError).map({ $0.errnoCode == ECONNREFUSED }) == true {
            return failure(
                .transport, "could not connect to \(target)",
                fix: "check that the server is running and that the URL's host and port are right")
        }
        if error is HTTPParserError {
            return failure(.transport, "the server's response is not valid HTTP")
        }
        if let clientError = error as? HTTPClientError, clientError == .remoteConnectionClosed {
            return failure(
                .transport, "connection lost before the response was complete",
                fix: "the server closed or reset the connection; retry, or check the server")
        }
        if error is IOError || error is ChannelError {
            return failure(
                .transport, "the connection to \(target) failed: closed or reset before the response was complete",
                fix: "retry, or check the server")
        }
        let typeName = String(describing: type(of: error))
        if typeName.contains("SSL") || typeName.contains("TLS") {
            return failure(
                .transport, "the TLS connection to \(target) failed",
                fix: "check the server's certificate and the URL's scheme")
        }
        return failure(.transport, "the request to \(target) failed (\(typeName))")
    }
}

extension GatewayError {
    /// This error with `underlying` replaced.
    fileprivate func with(underlying: any Error) -> GatewayError {
        var copy = self
        copy.underlying = underlying
        return copy
    }
}
