import Foundation

/// The one front for a backend: every request goes through its pipeline.
///
/// ```swift
/// let provider = Provider(baseURL: URL(string: "https://api.example.com/v1/")!) { config in
///     config.auth = .bearer(token)
/// }
/// let user = try await provider.value(Endpoint<User>.get("users/42"))
/// let response = try await provider.send(Endpoint<[Track]>.get("tracks", parameters: ["ids": [1, 2]]))
/// print(response.status, response.metrics.total)
/// ```
///
/// A provider holds only constants and is safe to share between tasks. Everything it throws is
/// a `GatewayError` with a kind and context, except `CancellationError`, which passes through.
public final class Provider: Sendable {
    /// The URL endpoint paths are joined to.
    public let baseURL: URL
    /// What sends the requests.
    public let transport: any Transport
    /// The settings fixed at creation.
    public let configuration: Configuration
    let pipeline: Pipeline
    /// The sockets of subscriptions over graphql-transport-ws, one per endpoint.
    let webSockets: WebSocketSubscriptions

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - baseURL: an absolute `http` or `https` URL; endpoint paths are always relative to its path.
    ///   - transport: what sends requests; `URLSessionTransport()` by default, `StubTransport` in tests.
    ///   - configure: sets headers, interceptors, observers, JSON settings, timeouts and stages.
    public init(
        baseURL: URL,
        transport: any Transport = URLSessionTransport(),
        configure: (inout Configuration) -> Void = { _ in }
    ) {
        var configuration = Configuration()
        configure(&configuration)
        self.baseURL = baseURL
        self.transport = transport
        self.configuration = configuration
        pipeline = Pipeline(baseURL: baseURL, transport: transport, configuration: configuration)
        webSockets = WebSocketSubscriptions(pipeline: pipeline)
    }

    /// Ends every request under way with a cancellation (each `send` throws
    /// `CancellationError` and observers see `finished` once per request), and fails every later
    /// request at once with a `GatewayError` of kind `.cancelled`.
    ///
    /// Each request runs in a task of its own, which this cancels (the caller's task is not
    /// cancelled): the queue's wait, retry delays, the wait for the network, the auth stage's
    /// wait for a refresh and the transport's exchange end as they do on any cancellation. An
    /// interceptor or auth stage of your own that ignores cancellation ends the request only
    /// when it returns.
    ///
    /// A call to `send` keeps its provider alive while it runs; requests started with
    /// `task(_:)` do not, so releasing the provider's last reference ends them as this does
    /// (the provider's `deinit` calls it). Call it when the provider is done with (log-out,
    /// account switch).
    public func invalidate() { pipeline.inFlight.invalidate() }

    /// Whether `invalidate()` has been called.
    public var isInvalidated: Bool { pipeline.inFlight.isInvalidated }

    deinit { pipeline.inFlight.invalidate() }

    /// Sends any requestable (an endpoint, an operation, your own) through the pipeline.
    ///
    /// Like every entry point that starts work (`send`, `fetch`, `value`, `stream`, `task`,
    /// `download`, `upload`, `subscribe`, `watch`), it leaves its caller's actor: called from
    /// the main actor, the request runs elsewhere and only its result comes back.
    ///
    /// - Returns: the decoded value with the HTTP response, the request sent and the metrics.
    /// - Throws: `GatewayError`, or `CancellationError` when the task was cancelled.
    @concurrent public func send<Request: Requestable>(_ request: Request) async throws -> Response<Request.Value> {
        try await pipeline.send(request)
    }
}
