import Foundation
import Gateway
import GatewayTestSupport
import GatewayTesting
import Testing

/// The one deadline that covers every attempt, on the real clock against a loopback server.
@Suite(.quietScheduler) struct RetryDeadlineTests {
    @Test func aFiveSecondDeadlineEndsByFivePointOneSecondsAgainstASlow503() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse.status(503).with(fault: .delayHeaders(.seconds(2))) }
        defer { server.shutdown() }
        // A draw of 0.2 makes the back-offs 0.1 s and 0.2 s, so a third attempt starts at about
        // 4.3 s and the deadline must cut it short in the transport.
        let provider = Provider(baseURL: server.baseURL, transport: URLSessionTransport()) {
            $0.deadline = .seconds(5)
            $0.retryPolicy = RetryPolicy(random: { 0.2 })
        }
        await QuietScheduler.wait(limit: .seconds(30))
        let started = ContinuousClock.now
        let error = try await #require(throws: GatewayError.self) {
            try await provider.send(Endpoint<Empty>.get("slow"))
        }
        let elapsed = ContinuousClock.now - started
        #expect(error.kind == .timeout)
        // The bound is the issue's: 5.1 s. The margin over the 5 s deadline covers the
        // transport's watchdog waking and the error travelling back on a loaded machine.
        #expect(elapsed <= .milliseconds(5_100), "took \(elapsed)")
        #expect(elapsed >= .seconds(4))
        #expect((2...3).contains(server.requests.count))
    }
}
