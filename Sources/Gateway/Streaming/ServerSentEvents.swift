import Foundation

/// The server-sent events of an endpoint, reconnecting as the HTML standard's `EventSource`
/// does: what `Provider.serverSentEvents(_:reconnectionTime:)` returns.
///
/// When the stream ends or the connection is lost (a `.transport` or `.timeout` failure), the
/// endpoint is requested again after the reconnection time (the one given, then the last `retry`
/// field's), with `Last-Event-ID` set to the last event ID the stream gave, so the server can go
/// on where it left off. A `204 No Content` ends the sequence; any other status but 2xx, or a
/// body that is not `text/event-stream`, is thrown. Ending the consuming task, or leaving the
/// loop, closes the connection and stops reconnecting.
///
/// ```swift
/// func followPrices(_ provider: Provider) async throws {
///     for try await event in provider.serverSentEvents(Endpoint<Data>.get("prices")) {
///         print(event.lastEventID, event.data)
///     }
/// }
/// ```
public struct ServerSentEvents: AsyncSequence, Sendable {
    public typealias Element = ServerSentEvent

    private let events: AsyncThrowingStream<ServerSentEvent, any Error>

    init(_ events: AsyncThrowingStream<ServerSentEvent, any Error>) {
        self.events = events
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: events.makeAsyncIterator())
    }

    /// Reads the events in order, across reconnections.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<ServerSentEvent, any Error>.Iterator

        /// The next event, or `nil` once the server answered `204 No Content`.
        public mutating func next() async throws -> ServerSentEvent? {
            try await base.next(isolation: #isolation)
        }
    }
}

/// The connections of one `ServerSentEvents` sequence, one after another.
struct ServerSentEventSource<Body: Sendable>: Sendable {
    let endpoint: Endpoint<Body>
    let provider: Provider
    let reconnectionTime: Duration

    /// Starts reading; ending the sequence's consumer cancels it.
    func events() -> ServerSentEvents {
        let (events, continuation) = AsyncThrowingStream.makeStream(of: ServerSentEvent.self)
        let source = self
        let task = Task {
            do {
                try await source.connect(yieldingTo: continuation)
                continuation.finish()
            } catch {
                continuation.finish(throwing: Task.isCancelled ? CancellationError() : error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return ServerSentEvents(events)
    }

    /// Connects, reads, and reconnects until a `204`, a failure that is not the connection's,
    /// or cancellation.
    private func connect(yieldingTo continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation)
        async throws
    {
        var parser = ServerSentEventParser()
        var wait = reconnectionTime
        while true {
            var request = endpoint
            request.headers["Accept"] = "text/event-stream"
            request.headers["Cache-Control"] = "no-cache"
            if !parser.lastEventID.isEmpty { request.headers["Last-Event-ID"] = parser.lastEventID }
            parser = ServerSentEventParser(lastEventID: parser.lastEventID, maxEventBytes: parser.maxEventBytes)
            do {
                let stream = try await provider.stream(request)
                if stream.status == 204 { return }
                try Self.checkEventStream(stream)
                for try await chunk in stream {
                    for event in try parser.events(in: chunk) { continuation.yield(event) }
                    if let time = parser.reconnectionTime { wait = time }
                }
            } catch let failure as GatewayError where failure.kind == .transport || failure.kind == .timeout {
                // The connection was lost: reconnect, as below.
            }
            try await provider.configuration.clock.sleep(for: wait)
        }
    }

    /// - Throws: `.invalidResponse` when the body is not `text/event-stream`.
    private static func checkEventStream(_ stream: ResponseStream) throws {
        let contentType = stream.headers["Content-Type"]
        let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard type == "text/event-stream" else {
            throw GatewayError(
                .invalidResponse,
                "expected an event stream (text/event-stream), got \(contentType ?? "no Content-Type")",
                fix: "check the endpoint's path: it does not serve server-sent events", request: stream.request)
        }
    }
}
