import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Gateway
import GatewayLoopback

/// The pipeline's own cost: Provider + URLSessionTransport against bare URLSession on the same
/// loopback server, one at a time and 64 in flight.
struct PipelineBenchmark {
    var requests: Int
    var runs: Int
    var inProcess: Bool

    /// A 628-byte JSON body, like the one the platform notes were measured with.
    static let body: Data = {
        var text = #"{"id":42,"name":"Ada Lovelace","email":"ada@example.com","tags":["math","poetry","engines"],"bio":""#
        let closing = #""}"#
        text += String(repeating: "x", count: 628 - text.utf8.count - closing.utf8.count) + closing
        return Data(text.utf8)
    }()

    /// One measured configuration.
    struct Row {
        var name: String
        var concurrency: Int
        var requestsPerSecond: [Double]
        var cpuPerRequest: [Duration]
    }

    func run() async throws -> String {
        let server = try await BenchServer.start(inProcess: inProcess)
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("item")
        var rows: [Row] = []
        for concurrency in [1, 64] {
            rows.append(try await measure("bare URLSession", concurrency) { try await BareClient(url: url) })
            rows.append(try await measure("Provider + instant transport (no network)", concurrency) {
                ProviderClient(baseURL: server.baseURL, cap: 64, transport: InstantTransport())
            })
            rows.append(try await measure("URLSessionTransport alone", concurrency) {
                TransportClient(url: url)
            })
            rows.append(try await measure("Provider + bare data(for:) transport", concurrency) {
                ProviderClient(baseURL: server.baseURL, cap: 64, transport: DataForTransport())
            })
            rows.append(try await measure("Provider + URLSessionTransport (queue cap 64)", concurrency) {
                ProviderClient(baseURL: server.baseURL, cap: 64)
            })
            rows.append(try await measure("Provider + URLSessionTransport (default: queue cap 6)", concurrency) {
                ProviderClient(baseURL: server.baseURL, cap: nil)
            })
        }
        return report(rows, server: server)
    }

    /// Warms a fresh client up, then measures `runs` runs of `requests` requests.
    private func measure(_ name: String, _ concurrency: Int, make: () async throws -> any BenchClient) async throws -> Row {
        let client = try await make()
        try await drive(client, count: min(500, requests), concurrency: concurrency)
        var row = Row(name: name, concurrency: concurrency, requestsPerSecond: [], cpuPerRequest: [])
        for _ in 0..<runs {
            let cpuBefore = CPUTime.current()
            let started = ContinuousClock.now
            try await drive(client, count: requests, concurrency: concurrency)
            let elapsed = ContinuousClock.now - started
            let cpu = CPUTime.current() - cpuBefore
            row.requestsPerSecond.append(Double(requests) / elapsed.seconds)
            row.cpuPerRequest.append(cpu / requests)
        }
        client.close()
        return row
    }

    /// Sends `count` requests with at most `concurrency` in flight.
    private func drive(_ client: any BenchClient, count: Int, concurrency: Int) async throws {
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

    private func report(_ rows: [Row], server: BenchServer) -> String {
        func median<T: Comparable>(_ values: [T]) -> T { values.sorted()[values.count / 2] }
        var lines = [
            "pipeline: GET of a \(Self.body.count)-byte JSON body, \(requests) requests per run, median of \(runs) runs"
                + (server.isChild ? " (server in a child process)" : " (server in this process: its CPU time counts)"),
            "| client | in flight | requests/s | min–max | CPU per request | vs bare (req/s) |",
            "|---|---|---|---|---|---|",
        ]
        for row in rows {
            let bare = rows.first { $0.name == "bare URLSession" && $0.concurrency == row.concurrency }
            let rate = median(row.requestsPerSecond)
            let ratio = bare.map { rate / median($0.requestsPerSecond) } ?? 1
            lines.append("| \(row.name) | \(row.concurrency) | " + String(format: "%.0f", rate) + " | "
                         + String(format: "%.0f–%.0f", row.requestsPerSecond.min() ?? 0, row.requestsPerSecond.max() ?? 0)
                         + " | " + String(format: "%.1f µs", median(row.cpuPerRequest).seconds * 1e6) + " | "
                         + String(format: "%.3f", ratio) + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// The pipeline's own cost with a transport that answers at once: µs per request, sequential.
    static func overhead(requests: Int) async throws -> String {
        guard let baseURL = URL(string: "http://127.0.0.1:9/") else { throw BenchError("no base URL") }
        let client = ProviderClient(baseURL: baseURL, cap: 64, transport: InstantTransport())
        for _ in 0..<min(1_000, requests) { try await client.fetch() }
        let cpuBefore = CPUTime.current()
        let started = ContinuousClock.now
        for _ in 0..<requests { try await client.fetch() }
        let elapsed = ContinuousClock.now - started
        let cpu = CPUTime.current() - cpuBefore
        return String(format: "overhead: %.1f µs per request (wall), %.1f µs CPU, instant transport, %d requests",
                      elapsed.seconds * 1e6 / Double(requests), cpu.seconds * 1e6 / Double(requests), requests)
    }

    /// `gateway bench serve`: the child process's server. Prints its port, then serves until
    /// standard input closes.
    static func serve(output: Output) async throws {
        let server = try LoopbackServer { _ in .data(body, contentType: "application/json") }
        output.print("\(server.port)")
        await Task.detached {
            while let line = readLine(strippingNewline: true), !line.isEmpty {}
        }.value
        server.shutdown()
    }
}

/// What the benchmark drives: one request per `fetch`.
protocol BenchClient: Sendable {
    func fetch() async throws
    func close()
}

/// `URLSession.data(for:)` with an ephemeral configuration and no delegate.
struct BareClient: BenchClient {
    let session: URLSession
    let request: URLRequest

    init(url: URL) async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 6
        session = URLSession(configuration: configuration)
        var request = URLRequest(url: url)
        request.setValue("Gateway-bench", forHTTPHeaderField: "User-Agent")
        self.request = request
    }

    func fetch() async throws {
        let (data, response) = try await session.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200, data.count == PipelineBenchmark.body.count else {
            throw BenchError("bare URLSession got an unexpected answer")
        }
    }

    func close() { session.finishTasksAndInvalidate() }
}

/// A Provider with URLSessionTransport, decoding the body as `Data`.
struct ProviderClient: BenchClient {
    let provider: Provider
    static let endpoint = Endpoint<Data>.get("item")

    init(baseURL: URL, cap: Int?, transport: any Transport = URLSessionTransport()) {
        provider = Provider(baseURL: baseURL, transport: transport) { config in
            if let cap { config.queue = PriorityRequestQueue(maxConcurrentRequests: cap) }
        }
    }

    func fetch() async throws {
        let response = try await provider.send(Self.endpoint)
        guard response.value.count == PipelineBenchmark.body.count else {
            throw BenchError("the provider got an unexpected answer")
        }
    }

    func close() { provider.invalidate() }
}

/// A benchmark that could not run.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// `URLSessionTransport.send` called directly: the transport's share of the cost.
struct TransportClient: BenchClient {
    let transport = URLSessionTransport()
    let url: URL

    func fetch() async throws {
        let response = try await transport.send(HTTPRequest(method: .get, url: url, headers: ["User-Agent": "Gateway"]))
        guard response.body.count == PipelineBenchmark.body.count else {
            throw BenchError("URLSessionTransport got an unexpected answer")
        }
    }

    func close() {}
}

/// A transport that is nothing but `URLSession.data(for:)`: the pipeline's share over bare URLSession.
struct DataForTransport: Transport {
    let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        for field in request.headers { urlRequest.setValue(field.value, forHTTPHeaderField: field.name) }
        let (data, response) = try await session.data(for: urlRequest)
        return HTTPResponse(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
    }
}

/// A transport that answers at once without a network: the pipeline's own cost.
struct InstantTransport: Transport {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: PipelineBenchmark.body, url: request.url)
    }
}
