import Foundation
import Gateway

/// An observer that keeps one record per request for the demo's table: what was sent, how it
/// ended, how many attempts it took and how long.
final class DemoRecorder: Observer {
    /// One request as the table shows it.
    struct Record: Sendable {
        var id: RequestID
        /// The endpoint's label: the script's name for the step.
        var name: String
        /// `GET /tracks/1`, as last sent (query included, as encoded).
        var request: String = "-"
        /// The final status code, when a response arrived.
        var status: Int?
        var outcome: RequestOutcome?
        var attempts = 0
        var total: Duration = .zero
    }

    private let state = Locked<(order: [RequestID], records: [RequestID: Record])>(([], [:]))

    /// The finished requests, in the order they started.
    var records: [Record] {
        state.withLock { state in state.order.compactMap { state.records[$0] }.filter { $0.outcome != nil } }
    }

    func requestEnqueued(_ context: RequestContext) {
        state.withLock { state in
            state.order.append(context.id)
            state.records[context.id] = Record(id: context.id, name: context.name)
        }
    }

    func requestSent(_ request: HTTPRequest, context: RequestContext) {
        let line = "\(request.method) \(Self.pathAndQuery(request.url))"
        state.withLock { $0.records[context.id]?.request = line }
    }

    func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {
        let status: Int? = switch outcome {
        case .success(let response): response.status
        case .failure(let error): error.status
        case .cancelled: nil
        }
        state.withLock { state in
            if state.records[context.id] == nil {
                state.order.append(context.id)
                state.records[context.id] = Record(id: context.id, name: context.name)
            }
            state.records[context.id]?.status = status
            state.records[context.id]?.outcome = outcome
            state.records[context.id]?.attempts = metrics.attempts
            state.records[context.id]?.total = metrics.total
        }
    }

    /// The path and query as they went on the wire, with sensitive query items redacted.
    static func pathAndQuery(_ url: URL) -> String {
        guard let components = URLComponents(string: Redaction.redactedURL(url)) else { return url.path }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}
