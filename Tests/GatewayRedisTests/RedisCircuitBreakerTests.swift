@testable import GatewayRedis
import Testing

@Suite struct RedisCircuitBreakerTests {
    /// What the breaker answers to a sequence of calls: `permits` at each offset, or a failure.
    enum Step {
        case ask(Duration)
        case fail(Duration)
        case succeed
    }

    static func run(_ steps: [Step], retryAfter: Duration) -> [Bool] {
        var breaker = RedisCircuitBreaker(retryAfter: retryAfter)
        let start = ContinuousClock.now
        return steps.map { step in
            switch step {
            case .ask(let offset): return breaker.permits(at: start + offset)
            case .fail(let offset): return breaker.failed(at: start + offset)
            case .succeed:
                breaker.succeeded()
                return true
            }
        }
    }

    @Test func oneFailureOpensTheCircuitUntilTheRetryTimeThenOneCallProbes() {
        let answers = Self.run([
            .ask(.zero), .fail(.zero), .ask(.seconds(9)), .ask(.seconds(10)), .ask(.seconds(10)), .fail(.seconds(10)),
            .ask(.seconds(19)), .ask(.seconds(20)), .succeed, .ask(.seconds(20)), .ask(.seconds(20)), .fail(.seconds(21)),
        ], retryAfter: .seconds(10))
        #expect(answers == [
            true, true,  // closed lets through; the first failure opens (time to warn)
            false, true, false,  // open until the retry time, then one probe and no one along with it
            false,  // a failed probe reopens, and is not a new outage
            false, true, true, true, true,  // the next probe succeeds, and everything goes through again
            true,  // a failure after recovery is a new outage
        ])
    }

    @Test func anAbandonedProbeLetsTheNextCallProbe() {
        var breaker = RedisCircuitBreaker(retryAfter: .seconds(1))
        let start = ContinuousClock.now
        _ = breaker.failed(at: start)
        let probe = breaker.permits(at: start + .seconds(2))
        breaker.abandoned(at: start + .seconds(2))
        let next = breaker.permits(at: start + .seconds(2))
        #expect(probe && next)
    }
}
