import Foundation
@testable import Gateway
import GatewayTestSupport
import GatewayTesting
import Testing

@Suite(.quietScheduler) struct RetryAfterTests {
    static let epoch1994 = Date(timeIntervalSince1970: 784_111_777)

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func everyHTTPDateFormParses(text: String) {
        #expect(HTTPDate.parse(text) == Self.epoch1994)
    }

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
                      "Sun, 6 Nov 1994 08:49:37 GMT", "Funday, 06-Nov-94 08:49:37 GMT", "06 Nov 1994", "", "Sun,",
                      "Sun, 29 Feb 2023 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994 8:49:37 GMT"])
    func malformedDatesDoNotParse(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func secondsDatesAndInvalidValues() {
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        #expect(RetryAfter.delay("3", now: now) == .seconds(3))
        #expect(RetryAfter.delay(" 0 ", now: now) == .zero)
        #expect(RetryAfter.delay("99999999999999999999999", now: now).map { $0 > .seconds(1_000_000) } == true)
        for invalid in ["soon", "-1", "1.5", "", "3s", "+3", "0x10"] {
            #expect(RetryAfter.delay(invalid, now: now) == nil, "\(invalid)")
        }
        #expect(RetryAfter.delay(Self.httpDate(now.addingTimeInterval(7)), now: now) == .seconds(7))
        #expect(RetryAfter.delay(Self.httpDate(now.addingTimeInterval(-70)), now: now) == .zero)
    }

    enum Form: String, CaseIterable { case seconds, date }

    @Test(arguments: Form.allCases)
    func theServersDelayIsUsedInsteadOfTheBackOff(form: Form) async throws {
        let clock = ManualClock(advancesOnSleep: true)
        let value = form == .seconds ? "7" : Self.httpDate(clock.date.addingTimeInterval(7))
        let stub = StubTransport().on(.get, "x", reply: .status(429, headers: ["Retry-After": value]), .status(200))
        let provider = makeProvider(stub) {
            $0.clock = clock
            $0.retryPolicy = RetryPolicy(random: { 0.5 })
        }
        let response = try await provider.send(Endpoint<Empty>.get("x"))
        #expect(response.metrics.attempts == 2)
        #expect(clock.sleeps == [.seconds(7)])
    }

    @Test(arguments: ["soon", "-5", "1.5", "Sun, 32 Nov 2025 08:49:37 GMT"])
    func anInvalidValueFallsBackToTheBackOff(value: String) async throws {
        let clock = ManualClock(advancesOnSleep: true)
        let stub = StubTransport().on(.get, "x", reply: .status(503, headers: ["Retry-After": value]), .status(200))
        let provider = makeProvider(stub) {
            $0.clock = clock
            $0.retryPolicy = RetryPolicy(random: { 0.5 })
        }
        _ = try await provider.send(Endpoint<Empty>.get("x"))
        #expect(clock.sleeps == [.milliseconds(250)])
    }

    @Test func aDateInThePastRetriesAtOnceAndAHugeValueIsClamped() async throws {
        let clock = ManualClock(advancesOnSleep: true)
        let past = Self.httpDate(clock.date.addingTimeInterval(-3600))
        let stub = StubTransport()
            .on(.get, "past", reply: .status(503, headers: ["Retry-After": past]), .status(200))
            .on(.get, "huge", reply: .status(503, headers: ["Retry-After": "86400"]), .status(200))
        let provider = makeProvider(stub) {
            $0.clock = clock
            $0.retryPolicy = RetryPolicy(maxRetryAfter: .seconds(60))
            $0.deadline = .seconds(120)  // Room for the clamped wait past the default 30 s.
        }
        let response = try await provider.send(Endpoint<Empty>.get("past"))
        #expect(response.metrics.attempts == 2)
        #expect(clock.sleeps.isEmpty)
        _ = try await provider.send(Endpoint<Empty>.get("huge"))
        #expect(clock.sleeps == [.seconds(60)])
    }

    @Test func aValuePastTheDeadlineFailsAtOnce() async throws {
        let clock = ManualClock(advancesOnSleep: true)
        // The deadline is far enough away that a loaded machine cannot reach it before the first
        // attempt; the server's Retry-After lies well past it.
        let stub = StubTransport().on(.get, "x", reply: .status(503, headers: ["Retry-After": "50"]), .status(200))
        let provider = makeProvider(stub) {
            $0.clock = clock
            $0.deadline = .seconds(30)
        }
        let error = try await #require(throws: GatewayError.self) { try await provider.send(Endpoint<Empty>.get("x")) }
        #expect(error.kind == .timeout)
        #expect(error.message.contains("Retry-After"))
        #expect(error.status == 503)
        #expect(stub.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test func aBackOffPastTheDeadlineFailsAtOnce() async throws {
        let clock = ManualClock(advancesOnSleep: true)
        let stub = StubTransport().on(.get, "x", reply: .status(503))
        let provider = makeProvider(stub) {
            $0.clock = clock
            $0.deadline = .seconds(30)
            $0.retryPolicy = RetryPolicy(initialDelay: .seconds(60), jitter: .none)
        }
        let error = try await #require(throws: GatewayError.self) { try await provider.send(Endpoint<Empty>.get("x")) }
        #expect(error.kind == .timeout)
        #expect(stub.requests.count == 1)
    }

    /// `date` as an IMF-fixdate.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
