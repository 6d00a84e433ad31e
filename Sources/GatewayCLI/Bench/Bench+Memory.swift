import Foundation
import Gateway
import GraphQLLanguage

/// `gateway bench queue-memory`: what a request costs in memory while it waits in the queue.
///
/// A blocker holds the queue (its transport answers only when told to), then `count` requests are
/// started and left waiting; the process's resident memory is read before and after. Measured
/// twice: through `Provider.send` (the caller's task holding the request's frames and state, and its queue
/// entry) and for the queue alone (one task waiting in `PriorityRequestQueue.enqueue`). A small
/// round first warms up the runtime's caches, and free memory is handed back to the system before
/// each first reading; freed memory the allocator still reuses can only make the figures smaller.
struct QueueMemoryBenchmark {
    var count: Int

    /// What was measured.
    struct Report {
        var queued: Int
        var providerBytesPerRequest: Double
        var queueBytesPerWaiter: Double
        var source: String

        var text: String {
            [
                "queue-memory: \(queued) requests waiting behind a blocker; "
                    + "resident memory (\(source)) before and after",
                "| what waits | bytes per request |",
                "|---|---|",
                "| Provider.send (the caller's task with the request's frames and state, its queue entry) | "
                    + String(format: "%.0f", providerBytesPerRequest) + " |",
                "| PriorityRequestQueue.enqueue alone (one task each) | "
                    + String(format: "%.0f", queueBytesPerWaiter) + " |",
            ].joined(separator: "\n")
        }

        var json: JSONValue {
            var object = JSONObject()
            object["benchmark"] = .string("queue-memory")
            object["queued"] = .int(queued)
            object["provider_bytes_per_request"] = .double(providerBytesPerRequest)
            object["queue_bytes_per_waiter"] = .double(queueBytesPerWaiter)
            object["measured_with"] = .string(source)
            return .object(object)
        }
    }

    func run() async throws -> Report {
        // The smaller measurement first: memory it frees is reused by the next one.
        _ = try await queueAlone(max(1, count / 100))
        let queue = try await queueAlone(count)
        _ = try await throughProvider(max(1, count / 100))
        let provider = try await throughProvider(count)
        return Report(queued: count, providerBytesPerRequest: provider, queueBytesPerWaiter: queue,
                      source: ResidentMemory.source)
    }

    /// Bytes per request waiting in a provider's queue.
    private func throughProvider(_ count: Int) async throws -> Double {
        let transport = HeldTransport()
        let queue = PriorityRequestQueue(maxConcurrentRequests: 6)
        let provider = Provider(baseURL: HeldTransport.baseURL, transport: transport) { config in
            config.queue = queue
            config.retryPolicy = .none
        }
        defer { provider.invalidate() }
        let blocker = Task {
            try await provider.send(Endpoint<Data>.post("refresh").with { $0.priority = .blocker })
        }
        await transport.waitForBlocker()
        let before = ResidentMemory.settledBytes()
        let after: Int = try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask { _ = try await provider.send(Endpoint<Data>.get("item/\(index)")) }
            }
            await queue.waitUntil { $0.totalWaiting >= count }
            let after = ResidentMemory.bytes()
            transport.release()
            try await group.waitForAll()
            return after
        }
        _ = try await blocker.value
        return Double(after - before) / Double(count)
    }

    /// Bytes per task waiting in `enqueue` of a blocked queue.
    private func queueAlone(_ count: Int) async throws -> Double {
        let queue = PriorityRequestQueue(maxConcurrentRequests: 6)
        let base = HeldTransport.baseURL
        let blocker = try await queue.enqueue(RequestContext(id: RequestID(0), name: "blocker", baseURL: base,
                                                             priority: .blocker))
        let before = ResidentMemory.settledBytes()
        let after: Int = try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 1...count {
                group.addTask {
                    let ticket = try await queue.enqueue(
                        RequestContext(id: RequestID(UInt64(index)), name: "waiter", baseURL: base, priority: .medium))
                    await queue.finished(ticket)
                }
            }
            await queue.waitUntil { $0.totalWaiting >= count }
            let after = ResidentMemory.bytes()
            await queue.finished(blocker)
            try await group.waitForAll()
            return after
        }
        return Double(after - before) / Double(count)
    }
}

/// A transport that holds the blocker until `release()` and answers everything else at once.
final class HeldTransport: Transport {
    static let baseURL = URL(string: "http://127.0.0.1:9/") ?? URL(fileURLWithPath: "/")

    private struct State {
        var arrived = false
        var released = false
        var held: [CheckedContinuation<Void, Never>] = []
        var watchers: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        if request.url.lastPathComponent == "refresh" {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let (ready, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    state.arrived = true
                    defer { state.watchers = [] }
                    if state.released { return (true, state.watchers) }
                    state.held.append(continuation)
                    return (false, state.watchers)
                }
                for watcher in watchers { watcher.resume() }
                if ready { continuation.resume() }
            }
        }
        return StreamedResponse(HTTPResponse(status: 200, body: Data("{}".utf8), url: request.url))
    }

    /// Returns once the blocker has reached the transport.
    func waitForBlocker() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let arrived = state.withLock { state -> Bool in
                if state.arrived { return true }
                state.watchers.append(continuation)
                return false
            }
            if arrived { continuation.resume() }
        }
    }

    /// Lets the blocker's answer go.
    func release() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.released = true
            defer { state.held = [] }
            return state.held
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// The process's resident memory.
enum ResidentMemory {
    #if os(Linux)
    static let source = "/proc/self/statm"
    #else
    static let source = "getrusage peak"
    #endif

    /// Resident bytes after handing memory the allocator holds free back to the system (glibc's
    /// `malloc_trim`, where it exists), so that a later reading counts new allocations.
    static func settledBytes() -> Int {
        #if os(Linux)
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            typealias Trim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        #endif
        return bytes()
    }

    /// Resident bytes now (on Linux; elsewhere the peak so far).
    static func bytes() -> Int {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        var usage = rusage()
        _ = getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)
        #endif
    }
}
