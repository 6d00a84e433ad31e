import Foundation
@testable import Gateway
import GatewayTesting

/// The admissions a `PriorityRequestQueue` reports, in its own order, with waits for a count.
final class AdmissionLog: Sendable {
    private struct State {
        var admitted: [(ticket: QueueTicket, priority: RequestPriority)] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    /// Pass as the queue's `onAdmit`.
    func record(_ ticket: QueueTicket, _ priority: RequestPriority) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.admitted.append((ticket, priority))
            let count = state.admitted.count
            defer { state.waiters.removeAll { $0.count <= count } }
            return state.waiters.filter { $0.count <= count }.map(\.continuation)
        }
        for waiter in ready { waiter.resume() }
    }

    /// The request numbers admitted, in order.
    var ids: [UInt64] { state.withLock { $0.admitted.map(\.ticket.id.rawValue) } }

    /// The tickets admitted, in order.
    var tickets: [QueueTicket] { state.withLock { $0.admitted.map(\.ticket) } }

    /// Returns once `count` requests have been admitted.
    func waitFor(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.admitted.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// A context for request number `number`.
func queueContext(_ number: UInt64, _ priority: RequestPriority) -> RequestContext {
    RequestContext(id: RequestID(number), name: "GET r\(number)", baseURL: testBaseURL, priority: priority)
}

extension PriorityRequestQueue {
    /// Enqueues request `number` in a task of its own, and returns once it waits in the queue.
    /// The queue must not age requests (`agingInterval: nil`): an earlier request aged into
    /// `priority` would be counted as this one, on a machine slow enough to take the interval.
    func enqueueWaiting(_ number: UInt64, _ priority: RequestPriority) async -> Task<QueueTicket, any Error> {
        let before = status.waiting[priority] ?? 0
        let task = Task { try await self.enqueue(queueContext(number, priority)) }
        await waitUntil { ($0.waiting[priority] ?? 0) > before }
        return task
    }
}

/// A transport that answers 200 only once its gate opens and ignores cancellation meanwhile,
/// like a platform that is slow to notice it.
struct StubbornTransport: Transport {
    let gate: Gate
    let received = Locked<[String]>([])

    func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        StreamedResponse(try await answer(request))
    }

    private func answer(_ request: HTTPRequest) async throws -> HTTPResponse {
        received.withLock { $0.append(request.url.lastPathComponent) }
        if request.url.lastPathComponent == "held" {
            // A task of its own does not inherit the caller's cancellation.
            await Task { try? await gate.wait() }.value
        }
        return HTTPResponse(status: 200, url: request.url)
    }
}

/// Counts `finished` events per request.
final class FinishCounter: Observer {
    let finished = Locked<[RequestID: Int]>([:])
    let outcomes = Locked<[String: Int]>([:])

    func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {
        finished.withLock { $0[context.id, default: 0] += 1 }
        let name = switch outcome {
        case .success: "success"
        case .failure(let error): "failure \(error.kind)"
        case .cancelled: "cancelled"
        }
        outcomes.withLock { $0[name, default: 0] += 1 }
    }
}
