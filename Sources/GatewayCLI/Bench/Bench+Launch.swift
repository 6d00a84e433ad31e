import Foundation
import Gateway
import GatewayLoopback
import GraphQLLanguage

/// The launch scenario of the request-queue issue: a token refresh as a blocker, then 38
/// requests of mixed priority, against fixed per-route delays.
struct LaunchBenchmark {
    /// The server's fixed delay per route.
    static let refreshDelay = Duration.milliseconds(150)
    static let delays: [RequestPriority: Duration] = [.high: .milliseconds(40), .medium: .milliseconds(80),
                                                      .low: .milliseconds(120)]
    /// How many requests of each priority, and the order they are started in (lows first, so
    /// arrival order is the worst case for a FIFO queue).
    static let mix: [(RequestPriority, Int)] = [(.low, 5), (.medium, 30), (.high, 3)]
    static let cap = 6

    var runs: Int

    /// One run's times, from the start of the refresh.
    struct Timing {
        var total: Duration
        var lastByPriority: [RequestPriority: Duration]
    }

    /// The ideal schedule: the blocker alone, then the requests in priority order, each on the
    /// slot that frees first.
    static func idealSchedule(cap: Int = cap) -> (total: Duration, lastByPriority: [RequestPriority: Duration]) {
        var slots = Array(repeating: refreshDelay, count: max(1, cap))
        var last: [RequestPriority: Duration] = [:]
        for priority in [RequestPriority.high, .medium, .low] {
            let count = mix.first { $0.0 == priority }?.1 ?? 0
            for _ in 0..<count {
                guard let index = slots.indices.min(by: { slots[$0] < slots[$1] }) else { continue }
                slots[index] += delays[priority] ?? .zero
                last[priority] = max(last[priority] ?? .zero, slots[index])
            }
        }
        return (slots.max() ?? refreshDelay, last)
    }

    func run() async throws -> LaunchReport {
        var router = LoopbackRouter()
        router.post("/auth/refresh") { _ in
            try await Task.sleep(for: Self.refreshDelay)
            return .json(#"{"access_token":"fresh","expires_in":3600}"#)
        }
        for (priority, delay) in Self.delays {
            router.get("/\(priority)/*") { _ in
                try await Task.sleep(for: delay)
                return .json(#"{"ok":true}"#)
            }
        }
        let server = try LoopbackServer(router: router)
        defer { server.shutdown() }
        var timings: [Timing] = []
        for index in 0...runs {
            let timing = try await once(server)
            if index > 0 { timings.append(timing) }  // the first run is a warm-up
        }
        return LaunchReport(timings: timings)
    }

    /// One run on a fresh provider whose connections are opened before the clock starts.
    private func once(_ server: LoopbackServer) async throws -> Timing {
        let dispatched = DispatchSignal()
        let provider = Provider(baseURL: server.baseURL, transport: URLSessionTransport()) { config in
            config.queue = PriorityRequestQueue(maxConcurrentRequests: Self.cap)
            config.observers = [dispatched]
            config.retryPolicy = .none
        }
        // Open the six connections first, so every run measures scheduling, not connecting.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<Self.cap {
                group.addTask { _ = try await provider.send(Endpoint<Data>.get("high/warm\(index)")) }
            }
            try await group.waitForAll()
        }
        let started = ContinuousClock.now
        let refresh = Endpoint<Data>.post("auth/refresh").with {
            $0.priority = .blocker
            $0.label = "refresh"
        }
        async let refreshed = provider.send(refresh)
        await dispatched.waitForBlocker()
        var last: [RequestPriority: Duration] = [:]
        try await withThrowingTaskGroup(of: (RequestPriority, Duration).self) { group in
            var number = 0
            for (priority, count) in Self.mix {
                for _ in 0..<count {
                    number += 1
                    let endpoint = Endpoint<Data>.get("\(priority)/\(number)").with { $0.priority = priority }
                    group.addTask {
                        _ = try await provider.send(endpoint)
                        return (priority, ContinuousClock.now - started)
                    }
                }
            }
            for try await (priority, finished) in group {
                last[priority] = max(last[priority] ?? .zero, finished)
            }
        }
        _ = try await refreshed
        let total = last.values.max() ?? .zero
        provider.invalidate()
        return Timing(total: total, lastByPriority: last)
    }
}

/// What `gateway bench launch` measured, as a table for people or one JSON object.
struct LaunchReport {
    var timings: [LaunchBenchmark.Timing]

    /// The table.
    var text: String {
        let ideal = LaunchBenchmark.idealSchedule()
        let totals = timings.map(\.total).sorted()
        let median = totals[totals.count / 2]
        func ms(_ duration: Duration) -> String { String(format: "%.1f ms", duration.seconds * 1000) }
        var lines = [
            "launch: 38 requests (3 high, 30 medium, 5 low) behind a refresh blocker, cap \(LaunchBenchmark.cap), \(timings.count) runs",
            "| measure | ideal | median | min | max | median / ideal |",
            "|---|---|---|---|---|---|",
        ]
        let ratio = median.seconds / ideal.total.seconds
        lines.append("| all finished | \(ms(ideal.total)) | \(ms(median)) | \(ms(totals[0])) | \(ms(totals[totals.count - 1])) | "
                     + String(format: "%.3f", ratio) + " |")
        for priority in [RequestPriority.high, .medium, .low] {
            let values = timings.compactMap { $0.lastByPriority[priority] }.sorted()
            guard !values.isEmpty, let idealLast = ideal.lastByPriority[priority] else { continue }
            let value = values[values.count / 2]
            lines.append("| last \(priority) finished | \(ms(idealLast)) | \(ms(value)) | \(ms(values[0])) | "
                         + "\(ms(values[values.count - 1])) | " + String(format: "%.3f", value.seconds / idealLast.seconds) + " |")
        }
        lines.append(ratio <= 1.10 ? "within 10% of the ideal schedule" : "MORE than 10% over the ideal schedule")
        return lines.joined(separator: "\n")
    }

    /// One object: the ideal and measured times (milliseconds), overall and per priority.
    var json: JSONValue {
        let ideal = LaunchBenchmark.idealSchedule()
        func ms(_ duration: Duration) -> JSONValue { .double(duration.seconds * 1000) }
        func summary(_ values: [Duration], ideal: Duration) -> JSONValue {
            let sorted = values.sorted()
            var object = JSONObject()
            object["ideal_ms"] = ms(ideal)
            guard !sorted.isEmpty else { return .object(object) }
            let median = sorted[sorted.count / 2]
            object["median_ms"] = ms(median)
            object["min_ms"] = ms(sorted[0])
            object["max_ms"] = ms(sorted[sorted.count - 1])
            object["median_over_ideal"] = .double(median.seconds / ideal.seconds)
            return .object(object)
        }
        var object = JSONObject()
        object["benchmark"] = .string("launch")
        object["requests"] = .int(LaunchBenchmark.mix.reduce(0) { $0 + $1.1 })
        object["cap"] = .int(LaunchBenchmark.cap)
        object["runs"] = .int(timings.count)
        object["all"] = summary(timings.map(\.total), ideal: ideal.total)
        for priority in [RequestPriority.high, .medium, .low] {
            guard let idealLast = ideal.lastByPriority[priority] else { continue }
            object["last_\(priority)"] = summary(timings.compactMap { $0.lastByPriority[priority] }, ideal: idealLast)
        }
        return .object(object)
    }
}

/// Tells the launch scenario when its blocker has left the queue.
final class DispatchSignal: Observer {
    private let gate = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func requestDequeued(_ context: RequestContext) {
        guard context.priority == .blocker else { return }
        let waiters = gate.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func waitForBlocker() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = gate.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
