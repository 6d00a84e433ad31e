import Foundation
@testable import Gateway
import GatewayTesting
import Testing

/// A time source that never waits, so retry back-off costs no real time.
struct InstantTimeSource: TimeSource {
    var now: ContinuousClock.Instant { .now }
    var date: Date { Date() }
    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        await Task.yield()
        try Task.checkCancellation()
    }
}

@Suite struct QueueStressTests {
    /// What one randomized request does.
    enum Scenario: CaseIterable {
        case success, failure, transportFailure, timeout, retryThenSuccess, cancelBeforeStart, cancelLater
    }

    @Test func tenThousandRandomizedRequestsEachFinishExactlyOnce() async throws {
        let transport = ScriptedTransport()
        let queue = PriorityRequestQueue(maxConcurrentRequests: 4)
        let counter = FinishCounter()
        let provider = Provider(baseURL: testBaseURL, transport: transport) {
            $0.queue = queue
            $0.deadline = nil  // a real-time deadline would measure the suite's queue
            $0.observers = [counter]
            $0.clock = InstantTimeSource()
        }
        var generator = SplitMix(seed: 2024)
        let ended = Locked(0)
        var number = 0
        for _ in 0..<100 {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<100 {
                    let scenario = Scenario.allCases[Int(generator.next() % UInt64(Scenario.allCases.count))]
                    let priority = RequestPriority.allCases[Int(generator.next() % 5)]
                    let yields = Int(generator.next() % 4)
                    let endpoint = Endpoint<Empty>.get("\(scenario)", query: [URLQueryItem(name: "n", value: "\(number)")])
                        .with { $0.priority = priority }
                    number += 1
                    group.addTask {
                        let task = Task { try await provider.send(endpoint) }
                        switch scenario {
                        case .cancelBeforeStart:
                            task.cancel()
                        case .cancelLater:
                            for _ in 0..<yields { await Task.yield() }
                            task.cancel()
                        default:
                            break
                        }
                        _ = try? await task.value
                        ended.withLock { $0 += 1 }
                    }
                }
            }
        }
        #expect(ended.value == 10_000)
        #expect(counter.finished.value.count == 10_000)
        #expect(counter.finished.value.values.allSatisfy { $0 == 1 })
        let outcomes = counter.outcomes.value
        for kind in ["success", "failure status", "failure transport", "failure timeout", "cancelled"] {
            #expect((outcomes[kind] ?? 0) > 0, "no request ended as \(kind): \(outcomes)")
        }
        let status = queue.status
        #expect(status.running == 0 && !status.blockerRunning && status.totalWaiting == 0)
    }
}

/// Answers by path, fast enough for thousands of requests: `success`, `cancel…` 200;
/// `failure` 404; `transportFailure` a lost connection; `timeout` a timeout;
/// `retryThenSuccess` 503 the first time a URL is seen, then 200.
final class ScriptedTransport: Transport {
    private let seen = Locked<Set<String>>([])

    func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        StreamedResponse(try await answer(request))
    }

    private func answer(_ request: HTTPRequest) async throws -> HTTPResponse {
        await Task.yield()
        try Task.checkCancellation()
        switch request.url.lastPathComponent {
        case "failure":
            return HTTPResponse(status: 404, url: request.url)
        case "transportFailure":
            throw GatewayError(.transport, "lost", underlying: URLError(.networkConnectionLost))
        case "timeout":
            throw GatewayError(.timeout, "no answer")
        case "retryThenSuccess":
            let first = seen.withLock { $0.insert(request.url.absoluteString).inserted }
            return HTTPResponse(status: first ? 503 : 200, url: request.url)
        default:
            return HTTPResponse(status: 200, url: request.url)
        }
    }
}
