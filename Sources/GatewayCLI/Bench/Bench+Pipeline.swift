import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Gateway
import GatewayLoopback
import GraphQLLanguage

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
        var key: String
        var name: String
        var concurrency: Int
        var queueCap: Int?
        var requestsPerSecond: [Double] = []
        var cpuPerRequest: [Duration] = []
        var switchesPerRequest: [Double] = []
    }

    /// The clients measured, by key: (key, label, queue cap or nil when no queue, make).
    static let clientKeys = ["bare", "instant", "transport", "dataFor", "provider", "providerDefault"]

    /// Keys to measure; every client when empty.
    var only: Set<String> = []

    func run() async throws -> PipelineReport {
        let server = try await BenchServer.start(inProcess: inProcess)
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("item")
        var rows: [Row] = []
        for concurrency in [1, 64] {
            // The queue cap matches the requests in flight, as the bare client has no queue; the
            // default cap (6) is measured too.
            let cap = concurrency
            let clients: [(String, String, Int?, () async throws -> any BenchClient)] = [
                ("bare", "bare URLSession", nil, { try await BareClient(url: url) }),
                ("instant", "Provider + instant transport (no network)", cap, {
                    ProviderClient(baseURL: server.baseURL, cap: cap, transport: InstantTransport()) }),
                ("transport", "URLSessionTransport alone", nil, { TransportClient(url: url) }),
                ("dataFor", "Provider + bare data(for:) transport", cap, {
                    ProviderClient(baseURL: server.baseURL, cap: cap, transport: DataForTransport()) }),
                ("provider", "Provider + URLSessionTransport", cap, {
                    ProviderClient(baseURL: server.baseURL, cap: cap) }),
                ("providerDefault", "Provider + URLSessionTransport, default queue", 6, {
                    ProviderClient(baseURL: server.baseURL, cap: nil) }),
            ]
            var measured: [(row: Row, client: any BenchClient)] = []
            for (key, name, queueCap, make) in clients where only.isEmpty || only.contains(key) {
                if key == "providerDefault" && concurrency == 1 && !only.contains(key) { continue }
                let client = try await make()
                try await Self.drive(client, count: min(500, requests), concurrency: concurrency)
                measured.append((Row(key: key, name: name, concurrency: concurrency, queueCap: queueCap), client))
            }
            // Runs take turns across the clients, so a busy spell on the machine falls on all of them.
            for _ in 0..<runs {
                for index in measured.indices {
                    try await measure(&measured[index].row, measured[index].client)
                }
            }
            for (row, client) in measured {
                client.close()
                rows.append(row)
            }
        }
        return PipelineReport(rows: rows, requests: requests, runs: runs, serverInChild: server.isChild)
    }

    /// One run of `requests` requests.
    private func measure(_ row: inout Row, _ client: any BenchClient) async throws {
        let before = ProcessUsage.current()
        let started = ContinuousClock.now
        try await Self.drive(client, count: requests, concurrency: row.concurrency)
        let elapsed = ContinuousClock.now - started
        let used = ProcessUsage.current() - before
        row.requestsPerSecond.append(Double(requests) / elapsed.seconds)
        row.cpuPerRequest.append(used.cpu / requests)
        row.switchesPerRequest.append(Double(used.contextSwitches) / Double(requests))
    }

    /// Sends `count` requests with `concurrency` in flight: that many tasks, each sending its
    /// share one request after another (so the harness makes no task per request of its own).
    static func drive(_ client: any BenchClient, count: Int, concurrency: Int) async throws {
        let workers = max(1, min(concurrency, count))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<workers {
                let share = count / workers + (worker < count % workers ? 1 : 0)
                group.addTask {
                    for _ in 0..<share { try await client.fetch() }
                }
            }
            try await group.waitForAll()
        }
    }

    /// The pipeline's own cost with a transport that answers at once: one request at a time
    /// in one task, or `inFlight` at a time from as many tasks (see `drive`).
    struct Overhead {
        var requests: Int
        var inFlight: Int
        var allStages: Bool
        var deduplicates: Bool
        var wall: Duration
        var cpu: Duration

        var text: String {
            String(format: "overhead: %.1f µs per request (wall), %.1f µs CPU, instant transport, %d requests",
                   wall.seconds * 1e6 / Double(requests), cpu.seconds * 1e6 / Double(requests), requests)
                + (inFlight > 1 ? ", \(inFlight) in flight" : "") + (allStages ? ", all stages on" : "")
                + (allStages && deduplicates ? ", identical requests shared" : "")
        }

        var json: JSONValue {
            var object = JSONObject()
            object["benchmark"] = .string("overhead")
            object["requests"] = .int(requests)
            object["in_flight"] = .int(inFlight)
            object["all_stages"] = .bool(allStages)
            object["deduplicates"] = .bool(allStages && deduplicates)
            object["wall_us_per_request"] = .double(wall.seconds * 1e6 / Double(requests))
            object["cpu_us_per_request"] = .double(cpu.seconds * 1e6 / Double(requests))
            return .object(object)
        }
    }

    static func overhead(requests: Int, inFlight: Int = 1, allStages: Bool = false,
                         deduplicates: Bool = false) async throws -> Overhead {
        guard let baseURL = URL(string: "http://127.0.0.1:9/") else { throw BenchError("no base URL") }
        let client = ProviderClient(baseURL: baseURL, cap: max(64, inFlight), transport: InstantTransport(),
                                    allStages: allStages, deduplicates: deduplicates)
        func send(_ count: Int) async throws {
            if inFlight == 1 {
                for _ in 0..<count { try await client.fetch() }
            } else {
                try await drive(client, count: count, concurrency: inFlight)
            }
        }
        try await send(min(1_000, requests))
        let before = ProcessUsage.current()
        let started = ContinuousClock.now
        try await send(requests)
        let elapsed = ContinuousClock.now - started
        return Overhead(requests: requests, inFlight: inFlight, allStages: allStages, deduplicates: deduplicates,
                        wall: elapsed,
                        cpu: (ProcessUsage.current() - before).cpu)
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
///
/// With `allStages`, every stage has work: a bearer token, a `ResponseCache` over a memory store
/// that plans each request and is offered each response (`networkOnly`, identical requests not
/// shared unless `deduplicates`, so every request is sent), and an observer that adds up every
/// request's metrics.
struct ProviderClient: BenchClient {
    let provider: Provider
    let endpoint: Endpoint<Data>

    init(baseURL: URL, cap: Int?, transport: any Transport = URLSessionTransport(), allStages: Bool = false,
         deduplicates: Bool = false) {
        endpoint = allStages ? Endpoint<Data>.get("item").cachePolicy(.networkOnly) : Endpoint<Data>.get("item")
        provider = Provider(baseURL: baseURL, transport: transport) { config in
            if let cap { config.queue = PriorityRequestQueue(maxConcurrentRequests: cap) }
            guard allStages else { return }
            config.auth = .bearer("bench-token")
            config.cache = ResponseCache(store: MemoryCacheStore(), deduplicatesRequests: deduplicates)
            config.observers = [MetricsTally()]
        }
    }

    func fetch() async throws {
        let response = try await provider.send(endpoint)
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
        let request = HTTPRequest(method: .get, url: url, headers: ["User-Agent": "Gateway"])
        let response = try await transport.send(request).collect(upTo: request.maxResponseBytes)
        guard response.body.count == PipelineBenchmark.body.count else {
            throw BenchError("URLSessionTransport got an unexpected answer")
        }
    }

    func close() {}
}

/// A transport that is nothing but `URLSession.data(for:)`, on a session configured as the bare
/// client's: the pipeline's share over bare URLSession.
struct DataForTransport: Transport {
    let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 6
        return URLSession(configuration: configuration)
    }()
    func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        var urlRequest = URLRequest(url: request.url)
        for field in request.headers { urlRequest.setValue(field.value, forHTTPHeaderField: field.name) }
        let (data, response) = try await session.data(for: urlRequest)
        return StreamedResponse(HTTPResponse(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data))
    }
}

/// An observer that adds up every finished request's metrics, as an app's metrics sink would.
final class MetricsTally: Observer {
    private let tally = Locked<(requests: Int, total: Duration)>((0, .zero))

    func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {
        tally.withLock { tally in
            tally.requests += 1
            tally.total += metrics.total
        }
    }
}

/// A transport that answers at once without a network: the pipeline's own cost.
struct InstantTransport: Transport {
    func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        StreamedResponse(HTTPResponse(
            status: 200, headers: ["Content-Type": "application/json"], body: PipelineBenchmark.body, url: request.url))
    }
}
