import Foundation

/// Steps 3 to 8: queue, auth, then attempts until one is accepted (see `Pipeline`).
extension Pipeline {
    /// Steps 3 to 8 for the request as built (with any validators the cache added).
    ///
    /// - Parameter revalidating: whether the request carries a stored entry's validators, so
    ///   that a `304` is an answer.
    func exchange(_ requestable: any Requestable, _ prepared: PreparedRequest, _ call: Call,
                  revalidating: Bool = false) async throws -> Exchange {
        var call = call
        // 3. Queue.
        let release = try await enqueue(&call)
        do {
            let exchange = try await withTaskCancellationHandler {
                try await authorizedAttempts(requestable, prepared, revalidating: revalidating, &call)
            } onCancel: {
                release?.releaseSoon()
            }
            await release?.release()
            return exchange
        } catch {
            await release?.release()
            throw error
        }
    }

    /// Steps 4 to 8; step 4 again after each auth replay, step 5 after each retry.
    private func authorizedAttempts(_ requestable: any Requestable, _ prepared: PreparedRequest, revalidating: Bool,
                                    _ call: inout Call) async throws -> Exchange {
        var built = prepared
        // The attempt an auth replay sends again (its body and the header fields its encoders set).
        var replayed: Attempt?
        defer { replayed?.removeTemporaryBodies() }
        while true {
            // 4. Auth.
            var authorized = try await authorize(built, &call)

            attempts: while true {
                // 5–7. Encode, adapt, transport.
                let attempt = try await self.attempt(authorized, replaying: replayed, &call)
                replayed = nil

                // 8. Decide.
                let verdict: Verdict
                do {
                    verdict = try await decide(attempt, authorized, requestable, revalidating: revalidating, &call)
                } catch {
                    attempt.removeTemporaryBodies()
                    throw error
                }
                attempt.removeTemporaryBodies(keepingEncoded: verdict.replays)
                switch verdict {
                case .accept(let response):
                    return Exchange(request: attempt.sent, answer: response, metrics: call.metrics,
                                    attempt: call.context.attempt, persistedQuery: authorized.persistedQueryUse)
                case .retry(let delay):
                    try await waitToRetry(after: delay, &call)
                case .followUp:
                    built = built.followedUp()
                    authorized = authorized.followedUp()
                case .replay:
                    replayed = attempt
                    break attempts
                }
            }
        }
    }

    /// Step 3: waits for the queue's ticket; the time queued and the `enqueued` and `dequeued`
    /// events. A credential refresh request may be let through without one (see `RefreshScope`).
    private func enqueue(_ call: inout Call) async throws -> TicketRelease? {
        let queue = configuration.queue, context = call.context
        notify { $0.requestEnqueued(context) }
        let queueing = Stopwatch.start()
        let ticket: QueueTicket?
        do {
            if let refresh = call.refresh {
                ticket = try await refresh.admit(context, to: queue)
            } else {
                ticket = try await queue.enqueue(context)
            }
        } catch {
            throw wrap(error, .cancelled, "the request queue did not admit the request")
        }
        call.metrics.queued = queueing.elapsed
        call.metrics.heldByBlocker = min(ticket?.heldByBlocker ?? .zero, call.metrics.queued)
        notify { $0.requestDequeued(context) }
        return ticket.map { TicketRelease(queue: queue, ticket: $0) }
    }

    /// Step 4: the auth stage's request, timed; never for a credential refresh request. (The
    /// header fields it sets are checked with the interceptors' in step 6, before sending.)
    private func authorize(_ prepared: PreparedRequest, _ call: inout Call) async throws -> PreparedRequest {
        guard call.refresh == nil else { return prepared }
        let authorizing = Stopwatch.start()
        defer { call.metrics.authorization += authorizing.elapsed }
        do {
            return try await auth.authorize(prepared, context: call.context)
        } catch {
            throw wrap(error, .authentication, "credentials could not be attached")
        }
    }
}

/// What step 8 decided about an attempt.
enum Verdict {
    /// The response to decode.
    case accept(HTTPResponse)
    /// Another attempt, after the delay if there is one (step 5).
    case retry(after: Duration?)
    /// Credentials changed: back to the auth stage (step 4), sending the same body again.
    case replay
    /// Another attempt in the request's follow-up form (a persisted query's text with its hash).
    case followUp

    /// Whether the attempt's encoded body goes again (an auth replay).
    var replays: Bool {
        if case .replay = self { return true }
        return false
    }
}

/// Releases one queue ticket exactly once: when the request ends, or at once (from a
/// cancellation handler) when its task is cancelled, whichever comes first. Copies share
/// whether it was released.
struct TicketRelease: Sendable {
    private let queue: any RequestQueue
    private let ticket: QueueTicket
    private let released = Locked(false)

    init(queue: any RequestQueue, ticket: QueueTicket) {
        self.queue = queue
        self.ticket = ticket
    }

    private func claim() -> Bool {
        released.withLock { released in
            defer { released = true }
            return !released
        }
    }

    /// Releases the ticket unless it already was.
    func release() async {
        guard claim() else { return }
        await queue.finished(ticket)
    }

    /// Releases the ticket from synchronous code (a cancellation handler), unless it already was.
    func releaseSoon() {
        guard claim() else { return }
        queue.cancelled(ticket)
    }
}
