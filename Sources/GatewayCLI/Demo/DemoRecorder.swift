import Foundation
import Gateway

/// An observer that keeps one record per finished request, for the demo's table: the requests
/// the script makes itself, and the ones the provider makes for it (the token refresh).
final class DemoRecorder: Observer {
    /// One finished request.
    struct Record: Sendable {
        var id: RequestID
        /// The context's name: the endpoint's label or the operation's name.
        var name: String
        var startedAt: ContinuousClock.Instant
        /// Whether the token coordinator sent it to renew the credential.
        var isCredentialRefresh: Bool
        /// `POST /auth/refresh`, as last sent.
        var request: String = "-"
        /// The final status code, when a response arrived.
        var status: Int?
        var outcome: RequestOutcome
        var metrics: RequestMetrics
    }

    private let state = Locked<(sent: [RequestID: String], records: [Record])>(([:], []))

    /// The finished requests, in the order they finished.
    var records: [Record] { state.value.records }

    /// The refresh requests the token coordinator sent.
    var refreshes: [Record] { records.filter(\.isCredentialRefresh) }

    func requestSent(_ request: HTTPRequest, context: RequestContext) {
        let line = "\(request.method) \(Self.pathAndQuery(request.url))"
        state.withLock { $0.sent[context.id] = line }
    }

    func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {
        let status: Int? = switch outcome {
        case .success(let response): response.status
        case .failure(let error): error.status
        case .cancelled: nil
        }
        state.withLock { state in
            state.records.append(Record(
                id: context.id, name: context.name, startedAt: context.startedAt,
                isCredentialRefresh: context.isCredentialRefresh, request: state.sent[context.id] ?? "-",
                status: status, outcome: outcome, metrics: metrics))
        }
    }

    /// The path and query as they went on the wire, with sensitive query items redacted.
    static func pathAndQuery(_ url: URL) -> String {
        guard let components = URLComponents(string: Redaction.redactedURL(url)) else { return url.path }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}
