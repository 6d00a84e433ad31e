import Foundation

/// Sends an authenticator's refresh request through the provider that needs the refresh.
///
/// A request sent through it is a *refresh request*: it goes through the same pipeline as every other request (observers
/// see it with `RequestContext.isCredentialRefresh`, it is logged redacted and measured), but
///
/// - it skips the auth stage: no credential is attached and a 401 is not answered with
///   another refresh;
/// - it is queued as a `blocker`, so nothing else is dispatched while it runs and the
///   concurrency cap does not hold it; and should a `blocker` request be among the requests
///   waiting for the refresh, it does not wait for the queue at all. Either way it never waits
///   for a request that waits for it.
public struct RefreshClient: Sendable {
    let pipeline: Pipeline
    let scope: RefreshScope

    /// The provider's base URL.
    public var baseURL: URL { pipeline.baseURL }

    /// The provider clock's current date: what `expires_in` counts from.
    public var date: Date { pipeline.clock.date }

    /// Sends `request` as a refresh request.
    ///
    /// - Returns: the decoded value with the HTTP response, the request sent and the metrics.
    /// - Throws: as `Provider.send(_:)`.
    @concurrent public func send<Request: Requestable>(_ request: Request) async throws -> Response<Request.Value> {
        try await pipeline.send(request, as: .credentialRefresh(scope))
    }

    /// Sends `request` as a refresh request and returns only its decoded value.
    ///
    /// - Throws: as `Provider.send(_:)`.
    @concurrent public func value<Request: Requestable>(_ request: Request) async throws -> Request.Value {
        try await send(request).value
    }
}

/// The requests of one refresh (`RequestKind.credentialRefresh`): lets the coordinator tell
/// them to stop waiting for the queue.
final class RefreshScope: Sendable {
    private struct State {
        var bypassesQueue = false
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    }

    private let state = Locked(State())

    /// Whether the refresh's requests no longer wait for the queue.
    var bypassesQueue: Bool { state.withLock { $0.bypassesQueue } }

    /// From now on the refresh's requests do not wait for the queue; one waiting is admitted
    /// at once.
    func bypassQueue() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.bypassesQueue = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Admits a refresh request: the queue's ticket as a `blocker`, or `nil` when the queue is
    /// bypassed (at once, or while the request waits in it). A ticket the queue grants after
    /// all is given back.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it waits.
    func admit(_ context: RequestContext, to queue: any RequestQueue) async throws -> QueueTicket? {
        if bypassesQueue { return nil }
        return try await withThrowingTaskGroup(of: QueueTicket?.self) { group in
            group.addTask { try await queue.enqueue(context) }
            group.addTask {
                try await self.waitForBypass()
                return nil
            }
            var kept: Result<QueueTicket?, any Error>
            do {
                kept = .success(try await group.next() ?? nil)
            } catch {
                kept = .failure(error)
            }
            group.cancelAll()
            while true {
                let late: QueueTicket??
                do { late = try await group.next() } catch { continue }
                guard let late else { break }
                guard let ticket = late else { continue }
                if case .success(nil) = kept { kept = .success(ticket) } else { await queue.finished(ticket) }
            }
            return try kept.get()
        }
    }

    /// Returns once the queue is bypassed.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    private func waitForBypass() async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Bool? in
                    if state.bypassesQueue { return true }
                    if Task.isCancelled { return false }
                    state.waiters[id] = continuation
                    return nil
                }
                switch outcome {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
