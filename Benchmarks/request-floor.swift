// request-floor.swift: the least a request can cost with the request core's design and none of
// its stages: one task per request (its caller's cancellation forwarded to it, as
// `Provider.invalidate()` needs) and a streamed body of one chunk collected by the caller.
// `gateway bench overhead` with every stage on is this plus the steps.
//
//   swiftc -O Benchmarks/request-floor.swift -o /tmp/request-floor
//   for n in 1000 3000; do valgrind --tool=callgrind --callgrind-out-file=/dev/null /tmp/request-floor $n; done
//   # instructions per request: (Ir(3000) − Ir(1000)) / 2000
import Foundation

struct Head: Sendable {
    var status: Int
    var headers: [String: String]
    var url: URL
}

/// One chunk, then the end: what an instant transport's body gives.
struct Chunks: AsyncSequence, Sendable {
    typealias Element = Data
    var pending: Data?

    struct AsyncIterator: AsyncIteratorProtocol {
        var pending: Data?
        mutating func next() async throws -> Data? {
            defer { pending = nil }
            return pending
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pending: pending) }
}

struct Streamed: Sendable {
    var head: Head
    var body: Chunks
}

let payload = Data(repeating: 120, count: 628)

func send(_ url: URL) async throws -> Streamed {
    Streamed(head: Head(status: 200, headers: ["Content-Type": "application/json"], url: url),
             body: Chunks(pending: payload))
}

func request(_ url: URL) async throws -> Int {
    let task = Task { () async throws -> Data in
        let response = try await send(url)
        var collected = Data()
        for try await chunk in response.body {
            if collected.isEmpty { collected = chunk } else { collected.append(chunk) }
        }
        return collected
    }
    return try await withTaskCancellationHandler { try await task.value.count } onCancel: { task.cancel() }
}

guard let url = URL(string: "http://127.0.0.1:9/item"), CommandLine.arguments.count == 2,
      let count = Int(CommandLine.arguments[1]) else {
    print("usage: request-floor REQUESTS")
    exit(2)
}
let done = DispatchSemaphore(value: 0)
Task {
    var total = 0
    for _ in 0..<count { total &+= (try? await request(url)) ?? 0 }
    print("\(count) requests, \(total) bytes")
    done.signal()
}
done.wait()
