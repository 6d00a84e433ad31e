import Foundation

/// Where a request's task is started and awaited (see `Pipeline`): each request runs in a task
/// of its own, which `Provider.invalidate()` cancels without cancelling its caller.
extension Pipeline {
    /// Sends `requestable` and hands its value back in its type.
    func send<R: Requestable>(_ requestable: R, as kind: RequestKind = .ordinary) async throws -> Response<R.Value> {
        try await send(erased: requestable, kind).response(as: R.Value.self, name: requestable.name)
    }

    /// Runs the request in a task of its own: the caller's cancellation cancels it, and so does
    /// `Provider.invalidate()`, without cancelling the caller.
    func send(erased requestable: any Requestable, _ kind: RequestKind) async throws -> Delivery {
        let (id, isInvalidated) = inFlight.next()
        guard !isInvalidated else { throw refused(requestable, id: id) }
        // A caller cancelled already: nothing runs (its task would not inherit the cancellation).
        guard !Task.isCancelled else { throw cancelledBeforeStart(requestable, id: id) }
        let task = start(requestable, id: id, kind: kind, immediately: true)
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Starts `requestable` in a task of its own and hands that task back: `Provider.invalidate()`
    /// cancels it, the caller's cancellation does not. After `invalidate()`, the task fails
    /// with the refusal.
    ///
    /// The task never starts on the calling thread: the caller may be the main actor (an app
    /// starting a download or a `RequestTask`), which must not run the pipeline.
    func start(_ requestable: any Requestable) -> Task<Delivery, any Error> {
        let (id, isInvalidated) = inFlight.next()
        guard !isInvalidated else {
            let failure = refused(requestable, id: id)
            return Task { throw failure }
        }
        return start(requestable, id: id, kind: .ordinary, immediately: false)
    }

    /// The request's task, registered with `inFlight`; it removes itself when it ends. When
    /// `immediately` and the platform allows, it runs on the calling thread until it first
    /// suspends, saving a thread hand-off: only for callers already off the caller's actor
    /// (`send(erased:_:)`, reached from the `@concurrent` entry points).
    private func start(_ requestable: any Requestable, id: RequestID, kind: RequestKind,
                       immediately: Bool) -> Task<Delivery, any Error> {
        let task: Task<Delivery, any Error>
        if immediately, #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            task = Task.immediate { try await self.run(requestable, id: id, kind: kind) }
        } else {
            task = Task { try await self.run(requestable, id: id, kind: kind) }
        }
        inFlight.register(id.rawValue, task)
        return task
    }

    /// The error, and the `finished` event, of a request sent after `Provider.invalidate()`.
    private func refused(_ requestable: any Requestable, id: RequestID) -> GatewayError {
        let context = RequestContext(id: id, name: requestable.name, baseURL: baseURL)
        let failure = GatewayError(.cancelled, "the provider was invalidated", fix: "create a new Provider",
                                   endpoint: requestable.name)
        notify { $0.requestFinished(.failure(failure), metrics: RequestMetrics(), context: context) }
        return failure
    }

    /// The `finished` event of a request whose caller was cancelled before it started.
    private func cancelledBeforeStart(_ requestable: any Requestable, id: RequestID) -> CancellationError {
        let context = RequestContext(id: id, name: requestable.name, baseURL: baseURL)
        notify { $0.requestFinished(.cancelled, metrics: RequestMetrics(), context: context) }
        return CancellationError()
    }
}
