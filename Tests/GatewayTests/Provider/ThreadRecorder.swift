import Foundation
import Gateway

/// A transport and observer that records, for each step of a request it sees, whether that
/// step ran on the main actor's executor (the main dispatch queue; on Linux not necessarily the
/// process's first thread) or on the main thread.
///
/// Its `send` runs on whatever executor the pipeline calls it from (`nonisolated(nonsending)`),
/// and the observer's events are called synchronously from the pipeline, so what it records is
/// where the pipeline itself runs. The transport answers every request with a small JSON body.
final class ThreadRecorder: Transport, Observer {
    /// One step of a request and where it ran.
    struct Step: Sendable, Equatable, CustomStringConvertible {
        var name: String
        var onMain: Bool

        var description: String { "\(name)\(onMain ? " (on the main actor)" : "")" }
    }

    static let body = Data(#"{"ok":true}"#.utf8)

    /// Marks the main dispatch queue, which runs the main actor's jobs.
    static let mainQueue: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the calling code runs on the main dispatch queue or the main thread.
    static var onMain: Bool { DispatchQueue.getSpecific(key: mainQueue) == true || Thread.isMainThread }

    private let recorded = Locked<[Step]>([])

    /// Every step so far, in the order they ran.
    var steps: [Step] { recorded.withLock { $0 } }

    /// The names of the steps that ran on the main queue, main thread or main actor.
    var stepsOnMain: [String] { steps.filter(\.onMain).map(\.name) }

    /// The names of all steps.
    var stepNames: [String] { steps.map(\.name) }

    private func record(_ name: String, onMainActor: Bool = false) {
        let step = Step(name: name, onMain: Self.onMain || onMainActor)
        recorded.withLock { $0.append(step) }
    }

    nonisolated(nonsending) func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        let isolation: (any Actor)? = #isolation
        record("transport", onMainActor: isolation.map { ObjectIdentifier($0) == ObjectIdentifier(MainActor.shared) }
            ?? false)
        return StreamedResponse(status: 200, headers: ["Content-Type": "application/json"], url: request.url,
                                body: ResponseBody(Self.body))
    }

    func requestEnqueued(_ context: RequestContext) { record("enqueued") }
    func requestDequeued(_ context: RequestContext) { record("dequeued") }
    func requestEncoded(_ request: HTTPRequest, context: RequestContext) { record("encoded") }
    func requestSent(_ request: HTTPRequest, context: RequestContext) { record("sent") }
    func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {
        record("finished")
    }
}
