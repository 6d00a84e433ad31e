/// A request started with `Provider.task(_:)`: it runs on its own, and it does not keep its
/// provider alive.
///
/// ```swift
/// var provider: Provider? = Provider(baseURL: url)
/// let tracks = provider?.task(Endpoint<[Track]>.get("tracks"))
/// provider = nil            // the last reference: every task under way ends with a cancellation
/// _ = try await tracks?.value  // throws CancellationError
/// ```
///
/// Awaiting `response` or `value` from a task that is then cancelled cancels the request too;
/// `cancel()` cancels it for every awaiter.
public struct RequestTask<Value: Sendable>: Sendable {
    /// The request's own task (see `Pipeline`).
    private let task: Task<Delivery, any Error>
    /// The request's name, for the error of a delivery of another type.
    private let name: String
    /// What the response goes through before it is handed out.
    private let finish: @Sendable (Response<Value>) -> Response<Value>

    init(_ task: Task<Delivery, any Error>, name: String,
         finish: @escaping @Sendable (Response<Value>) -> Response<Value> = { $0 }) {
        self.task = task
        self.name = name
        self.finish = finish
    }

    /// The response, once the request has ended.
    ///
    /// - Throws: `GatewayError`, or `CancellationError` when the request was cancelled, its
    ///   provider invalidated or released.
    public var response: Response<Value> {
        get async throws {
            let task = self.task
            let delivery = try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
            return finish(try delivery.response(as: Value.self, name: name))
        }
    }

    /// The decoded value, once the request has ended.
    ///
    /// - Throws: as `response` does.
    public var value: Value {
        get async throws { try await response.value }
    }

    /// Cancels the request; it ends with `CancellationError` and observers see `finished` once.
    public func cancel() { task.cancel() }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { task.isCancelled }
}

extension Provider {
    /// Starts a request without waiting for it, and without keeping the provider alive: when the
    /// provider's last reference goes, every request started this way that is still under way
    /// ends with a cancellation, once each (its observers see `finished` once), as
    /// `invalidate()` would end it.
    ///
    /// - Parameter request: an endpoint, an operation, or your own requestable.
    /// - Returns: the running request; await its `response` or `value`.
    public func task<Request: Requestable>(_ request: Request) -> RequestTask<Request.Value> {
        RequestTask(pipeline.start(request), name: request.name)
    }
}
