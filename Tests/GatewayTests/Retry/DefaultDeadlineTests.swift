import Foundation
import Gateway
import GatewayTestSupport
import GatewayTesting
import Testing

/// Every call has a whole-call deadline by default, and retries stay inside it: against loopback
/// servers that never answer or ask for a long wait, through the real `URLSessionTransport`.
@Suite(.quietScheduler) struct DefaultDeadlineTests {
    @Test func theDefaultConfigurationGivesEveryCallADeadlineOfAtMostThirtySeconds() throws {
        let configuration = Provider.Configuration()
        let deadline = try #require(configuration.deadline)
        #expect(deadline <= .seconds(30))
        #expect(configuration.retryPolicy.effectiveMaxRetries > 0, "the retries it bounds are on by default")
    }

    @Test func aServerThatNeverAnswersEndsAtTheDeadlineWithOneAttempt() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .stall) }
        defer { server.shutdown() }
        // The defaults but a shorter deadline: the 60 s idle timeout never passes first.
        let provider = Provider(baseURL: server.baseURL, transport: URLSessionTransport()) { $0.deadline = .seconds(1) }

        let error = try await #require(throws: GatewayError.self) {
            try await provider.send(Endpoint<Data>.get("never"))
        }

        #expect(error.kind == .timeout)
        #expect(error.message.contains("the call's deadline of 1 s passed after"), "\(error.message)")
        #expect(error.message.contains("during attempt 1"), "\(error.message)")
        #expect(error.fix?.contains("Configuration.deadline (30 s by default)") == true)
        #expect(server.requests.count == 1, "no retry is started once the deadline has passed")
    }

    @Test func retriesAfterIdleTimeoutsAreCutAtTheDeadline() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .stall) }
        defer { server.shutdown() }
        // Idle timeouts of 0.8 s and no back-off: attempts start at about 0, 0.8 and 1.6 s, and
        // the 2 s deadline cuts the one under way; the policy's 4 retries are never all made.
        let provider = Provider(baseURL: server.baseURL, transport: URLSessionTransport()) {
            $0.timeout = .milliseconds(800)
            $0.deadline = .seconds(2)
            $0.retryPolicy = RetryPolicy(maxRetries: 4, random: { 0 })
        }

        let error = try await #require(throws: GatewayError.self) {
            try await provider.send(Endpoint<Data>.get("never"))
        }

        #expect(error.kind == .timeout)
        #expect(error.message.contains("the call's deadline of 2 s passed"), "\(error.message)")
        #expect((2...3).contains(server.requests.count), "\(server.requests.count) attempts")
    }

    @Test func aRetryAfterPastTheDeadlineIsNotWaitedFor() async throws {
        let server = try LoopbackServer { _ in .status(503, headers: ["Retry-After": "20"]) }
        defer { server.shutdown() }
        let provider = Provider(baseURL: server.baseURL, transport: URLSessionTransport()) { $0.deadline = .seconds(5) }

        let error = try await #require(throws: GatewayError.self) {
            try await provider.send(Endpoint<Data>.get("busy"))
        }

        #expect(error.kind == .timeout)
        #expect(error.message.contains("gave up after 1 attempt(s): the server asked to wait 20"), "\(error.message)")
        #expect(error.message.contains("would end past the call's deadline of 5 s; the last answer was HTTP 503"))
        #expect(error.response?.status == 503)
        #expect(server.requests.count == 1)
    }

    @Test func aBackOffPastTheDeadlineEndsTheCallWithTheLastFailure() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .resetConnection) }
        defer { server.shutdown() }
        // A back-off of 10 s (no jitter) cannot end within the 3 s deadline.
        let provider = Provider(baseURL: server.baseURL, transport: URLSessionTransport()) {
            $0.deadline = .seconds(3)
            $0.retryPolicy = RetryPolicy(initialDelay: .seconds(10), jitter: .none)
        }

        let error = try await #require(throws: GatewayError.self) {
            try await provider.send(Endpoint<Data>.get("reset"))
        }

        #expect(error.kind == .timeout)
        #expect(error.message.contains("the back-off of 10000.0 ms would end past the call's deadline of 3 s"),
                "\(error.message)")
        #expect(error.message.contains("the last attempt failed: "))
        #expect((error.underlying as? GatewayError)?.kind == .transport)
        #expect(server.requests.count == 1)
    }
}
