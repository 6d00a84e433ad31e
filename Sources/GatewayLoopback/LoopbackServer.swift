import Foundation

/// Answers one request received by a `LoopbackServer`. A thrown error becomes a 500 response.
public typealias LoopbackHandler = @Sendable (LoopbackRequest) async throws -> LoopbackResponse

/// An HTTP/1.1 server on 127.0.0.1 that tests script.
///
/// It binds a free port chosen by the system, keeps connections alive, reads bodies framed by
/// `Content-Length` or chunked transfer coding (answering `Expect: 100-continue`), serves many
/// connections at once (a thread per connection, so blocking socket work never occupies Swift
/// concurrency's threads), and records every request it receives. Malformed requests get a 400
/// (413 or 431 for oversized ones) and the connection is closed.
///
/// The handler is `async`: awaiting a gate that the test opens is how a test holds a response
/// back. A response can carry a `LoopbackResponse.Fault` to misbehave on purpose.
///
/// ```swift
/// let server = try LoopbackServer { request in
///     request.path == "/slow" ? .text("late").with(fault: .delayHeaders(.seconds(2))) : .json(#"{"ok":true}"#)
/// }
/// defer { server.shutdown() }
/// let url = try server.url("/users?id=1")
/// ```
public final class LoopbackServer: Sendable {
    private let core: ServerCore

    /// The port the server listens on.
    public let port: Int

    /// `http://127.0.0.1:PORT/`.
    public let baseURL: URL

    /// Starts a server.
    ///
    /// - Parameters:
    ///   - maxRequestBodyBytes: the largest request body accepted; a larger one gets a 413.
    ///   - handler: answers each request; it runs as a task while the connection's thread waits.
    /// - Throws: `LoopbackServerError` when no socket could be bound on 127.0.0.1.
    public init(maxRequestBodyBytes: Int = 64 * 1024 * 1024, handler: @escaping LoopbackHandler) throws {
        let core = try ServerCore(maxRequestBodyBytes: maxRequestBodyBytes, handler: handler)
        guard let baseURL = URL(string: "http://127.0.0.1:\(core.port)/") else {
            core.shutdown()
            throw LoopbackServerError("could not form the base URL for port \(core.port)")
        }
        self.core = core
        self.port = core.port
        self.baseURL = baseURL
        core.start()
    }

    /// Starts a server that answers through a router.
    ///
    /// - Throws: `LoopbackServerError` when no socket could be bound on 127.0.0.1.
    public convenience init(router: LoopbackRouter, maxRequestBodyBytes: Int = 64 * 1024 * 1024) throws {
        try self.init(maxRequestBodyBytes: maxRequestBodyBytes) { request in try await router.handle(request) }
    }

    deinit { core.shutdown() }

    /// The URL of a path (with an optional query) on this server, such as `"/users?id=1"`.
    ///
    /// - Throws: `LoopbackServerError` when the text is not a valid path and query.
    public func url(_ pathAndQuery: String) throws -> URL {
        let path = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            throw LoopbackServerError("\"\(pathAndQuery)\" is not a valid path and query; percent-encode spaces and other reserved characters")
        }
        return url
    }

    /// Every request received so far, in the order they arrived (recorded before the handler runs).
    public var requests: [LoopbackRequest] { core.state.withLock { $0.requests } }

    /// How many connections the server has accepted so far.
    public var connectionCount: Int { core.state.withLock { $0.nextConnectionID - 1 } }

    /// How many connections are open now.
    public var openConnectionCount: Int { core.state.withLock { $0.connections.count } }

    /// Whether `shutdown()` has been called.
    public var isShutDown: Bool { core.isShutDown }

    /// Stops the server: closes the listening socket and every connection, cancels handlers
    /// still running, and waits for the server's threads to end. Idempotent; also runs when
    /// the server is released.
    public func shutdown() { core.shutdown() }
}

/// A failure to start the loopback server.
public struct LoopbackServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { "loopback server: \(message)" }
}
