import Foundation

extension Provider {
    /// Sends an endpoint and returns its response as soon as the head is accepted, with the
    /// body arriving while the caller reads it: server-sent events, lines of a log, a large
    /// body read chunk by chunk.
    ///
    /// The request goes through the same pipeline as `send` (queue, auth with its refresh and
    /// replay after a 401, retries, validation, observers, metrics) until a response head is
    /// accepted; not the response cache. A failed status is thrown with its body (read up to
    /// the provider's `maxResponseBytes`); a 2xx body is not read but handed over.
    ///
    /// ```swift
    /// func follow(_ provider: Provider) async throws {
    ///     let stream = try await provider.stream(Endpoint<Data>.get("logs/tail"))
    ///     for try await line in stream.lines {
    ///         print(line)
    ///     }
    /// }
    /// ```
    ///
    /// - Time: the call's deadline (the endpoint's or the provider's) bounds everything until
    ///   the head is accepted, retries included; the body then flows for as long as it is read,
    ///   ending with `.timeout` only when no byte arrives for longer than the idle `timeout`
    ///   (the endpoint's or the provider's; set it above the server's heartbeat interval).
    /// - Queue: the request holds its queue ticket until the head is accepted, not while the
    ///   body flows, so long-lived streams never starve other requests of the concurrency cap.
    ///   (A transport's own connection limit per host still counts each open stream.)
    /// - Ending: leaving the loop, dropping the stream, or cancelling the task that reads it
    ///   closes the connection. `Provider.invalidate()` ends a stream only while its head is
    ///   awaited.
    ///
    /// - Parameter endpoint: what to request; its method, path, headers, parameters and status
    ///   validation apply (only a 2xx is streamed). Its `maxResponseBytes` bounds the whole body
    ///   (no bound when `nil`).
    /// - Returns: the response head, the request sent and the metrics, with the body to read.
    /// - Throws: `GatewayError` (`.status` with the error body, `.timeout`, `.transport`, …) or
    ///   `CancellationError`; reading the body throws the transport's kinds.
    @concurrent public func stream<Body>(_ endpoint: Endpoint<Body>) async throws -> ResponseStream {
        ResponseStream(try await pipeline.send(StreamRequest(base: endpoint)), of: self)
    }

    /// The server-sent events of an endpoint, reconnecting after a lost connection with
    /// `Last-Event-ID`, as the HTML standard's `EventSource` does (see `ServerSentEvents`).
    ///
    /// Each connection goes through the pipeline as `stream(_:)` does (queue, auth with its
    /// refresh, retries, validation), with `Accept: text/event-stream` and
    /// `Cache-Control: no-cache`.
    ///
    /// ```swift
    /// for try await event in provider.serverSentEvents(Endpoint<Data>.get("prices")) {
    ///     print(event.type, event.data)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: the event stream to read.
    ///   - reconnectionTime: how long to wait before reconnecting until the server sets
    ///     another time with a `retry` field; 3 seconds by default.
    /// - Returns: the events of every connection, in order; it ends after a `204 No Content`.
    public func serverSentEvents<Body>(_ endpoint: Endpoint<Body>, reconnectionTime: Duration = .seconds(3))
        -> ServerSentEvents
    {
        ServerSentEventSource(endpoint: endpoint, provider: self, reconnectionTime: reconnectionTime).events()
    }
}
