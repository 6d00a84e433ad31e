import Foundation

/// The HTTP path: bare URLSession, bare async-http-client and a `Provider` over each transport,
/// against one server in a child process, one at a time and 64 in flight.
///
/// Every measurement runs in a fresh child process (`peers client …`): a warm-up, then one timed
/// run, reporting requests per second, CPU time per request and the process's peak memory. The
/// rounds interleave the clients, so a change in the machine's load falls on all of them alike.
struct HTTPBenchmarks {
    var server: BenchServer.Kind
    var url: URL?
    var runs: Int
    var sequentialRequests: Int
    var parallelRequests: Int

    static let concurrencies = [1, 64]

    /// One child's measurement.
    struct Sample: Sendable, Codable {
        var requestsPerSecond: Double
        var cpuPerRequest: Double
        var peakMemoryBytes: Int
    }

    /// One client at one concurrency, over all rounds.
    struct Result: Sendable, Codable {
        var client: ClientKind
        var concurrency: Int
        var requests: Int
        var requestsPerSecond: Spread
        var cpuPerRequestSeconds: Spread
        var peakMemoryBytes: Spread
        /// This client's requests per second over its bare client's, taken round by round (each
        /// round measures both, one shortly after the other): the median of the rounds' ratios
        /// (1 for a bare client).
        var ratioToBare: Double?
        /// The rounds' ratios: median, lowest and highest.
        var ratioToBareByRound: Spread?
    }

    func run(_ emit: (Result) -> Void) async throws {
        let child: ChildProcess?
        let baseURL: URL
        if let url {
            child = nil
            baseURL = url
        } else {
            let process = try ChildProcess(["serve", server.rawValue])
            let port = await process.readLine()
            guard let number = Int(port), number > 0, let url = URL(string: "http://127.0.0.1:\(number)/") else {
                process.finish()
                throw PeerFailure("the benchmark server did not start (it printed '\(port)')")
            }
            child = process
            baseURL = url
        }
        defer { child?.finish() }
        for concurrency in Self.concurrencies {
            let requests = concurrency == 1 ? sequentialRequests : parallelRequests
            var samples: [ClientKind: [Sample]] = [:]
            for round in 0..<runs {
                // Every other round runs the clients in reverse order, so that a drift in the
                // machine's load during a round falls on both sides of each ratio alike.
                let order = round.isMultiple(of: 2) ? ClientKind.allCases : ClientKind.allCases.reversed()
                for client in order {
                    samples[client, default: []].append(try await measure(client, concurrency, requests, baseURL))
                }
            }
            var results: [ClientKind: Result] = [:]
            for client in ClientKind.allCases {
                let all = samples[client] ?? []
                results[client] = Result(
                    client: client, concurrency: concurrency, requests: requests,
                    requestsPerSecond: Spread(all.map(\.requestsPerSecond), percentiles: false),
                    cpuPerRequestSeconds: Spread(all.map(\.cpuPerRequest), percentiles: false),
                    peakMemoryBytes: Spread(all.map { Double($0.peakMemoryBytes) }, percentiles: false),
                    ratioToBare: nil
                )
            }
            for client in ClientKind.allCases {
                guard var result = results[client] else { continue }
                let own = samples[client] ?? [], bare = samples[client.bare] ?? []
                let ratios = zip(own, bare).map { $0.requestsPerSecond / $1.requestsPerSecond }
                if !ratios.isEmpty {
                    let spread = Spread(ratios, percentiles: false)
                    result.ratioToBareByRound = spread
                    result.ratioToBare = spread.median
                }
                emit(result)
            }
        }
    }

    private func measure(_ client: ClientKind, _ concurrency: Int, _ requests: Int, _ baseURL: URL) async throws
        -> Sample
    {
        let process = try ChildProcess([
            "client", client.argument, "\(concurrency)", "\(requests)", "\(min(requests, 500))", baseURL.absoluteString,
        ])
        defer { process.finish() }
        let line = await process.readLine()
        guard let sample = try? JSONDecoder().decode(Sample.self, from: Data(line.utf8)) else {
            throw PeerFailure("the \(client.rawValue) client (\(concurrency) in flight) failed: \(line)")
        }
        return sample
    }

    /// `peers client KIND CONCURRENCY REQUESTS WARMUP URL`: the child's side. Prints one `Sample`
    /// as JSON, or the error.
    static func runClient(_ arguments: [String]) async -> String {
        guard arguments.count == 5, let kind = ClientKind(argument: arguments[0]), let concurrency = Int(arguments[1]),
            let requests = Int(arguments[2]), let warmup = Int(arguments[3]), let url = URL(string: arguments[4])
        else { return "usage: peers client KIND CONCURRENCY REQUESTS WARMUP URL" }
        do {
            let client = try kind.make(baseURL: url)
            try await drive(client, count: warmup, concurrency: concurrency)
            let cpuBefore = ProcessUsage.cpuSeconds()
            let started = ContinuousClock.now
            try await drive(client, count: requests, concurrency: concurrency)
            let elapsed = seconds(ContinuousClock.now - started)
            let cpu = ProcessUsage.cpuSeconds() - cpuBefore
            let sample = Sample(
                requestsPerSecond: Double(requests) / elapsed, cpuPerRequest: cpu / Double(requests),
                peakMemoryBytes: ProcessUsage.peakMemoryBytes()
            )
            try await client.close()
            return String(decoding: try JSONEncoder().encode(sample), as: UTF8.self)
        } catch {
            return "error: \(error)"
        }
    }

    /// Sends `count` requests with at most `concurrency` in flight.
    private static func drive(_ client: any BenchClient, count: Int, concurrency: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var started = 0
            while started < min(concurrency, count) {
                group.addTask { try await client.fetch() }
                started += 1
            }
            while try await group.next() != nil {
                if started < count {
                    group.addTask { try await client.fetch() }
                    started += 1
                }
            }
        }
    }
}
