import AsyncHTTPClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Gateway
import GatewayAsyncHTTPClient
import NIOCore

/// What the HTTP benchmark drives: one GET per `fetch`, checked for status and size.
protocol BenchClient: Sendable {
    func fetch() async throws
    func close() async throws
}

/// The clients measured, by the name the child process is started with.
enum ClientKind: String, CaseIterable, Sendable, Codable {
    case bareURLSession = "bare URLSession"
    /// A reference, not a Gateway client: the least a `URLSession` client that sees the body
    /// as it arrives (to bound its size, say) does, a session delegate and nothing else.
    case delegateURLSession = "URLSession with a session delegate (reference)"
    case transportURLSession = "URLSessionTransport alone"
    case providerURLSession = "Provider + URLSessionTransport"
    case stagesURLSession = "Provider + URLSessionTransport, all stages on"
    case bareAsyncHTTPClient = "bare async-http-client"
    /// A reference, not a Gateway client: the bare client doing 10 µs of other work per request,
    /// as any caller that looks at its responses does.
    case workingAsyncHTTPClient = "bare async-http-client + 10 µs of work per request (reference)"
    case transportAsyncHTTPClient = "AsyncHTTPClientTransport alone"
    /// A reference, not a Gateway client: the transport alone, each request in a task of its own
    /// whose caller forwards its cancellation, the least a `Provider` does around its transport.
    case taskAsyncHTTPClient = "AsyncHTTPClientTransport alone, each request in a task of its own (reference)"
    case providerAsyncHTTPClient = "Provider + AsyncHTTPClientTransport"
    case stagesAsyncHTTPClient = "Provider + AsyncHTTPClientTransport, all stages on"

    /// The bare client a provider row is compared with.
    var bare: ClientKind {
        switch self {
        case .bareURLSession, .delegateURLSession, .transportURLSession, .providerURLSession, .stagesURLSession:
            .bareURLSession
        case .bareAsyncHTTPClient, .workingAsyncHTTPClient, .transportAsyncHTTPClient, .taskAsyncHTTPClient,
            .providerAsyncHTTPClient, .stagesAsyncHTTPClient:
            .bareAsyncHTTPClient
        }
    }

    var argument: String {
        switch self {
        case .bareURLSession: "bare-urlsession"
        case .delegateURLSession: "delegate-urlsession"
        case .transportURLSession: "transport-urlsession"
        case .providerURLSession: "provider-urlsession"
        case .stagesURLSession: "stages-urlsession"
        case .bareAsyncHTTPClient: "bare-ahc"
        case .workingAsyncHTTPClient: "bare-ahc-work"
        case .transportAsyncHTTPClient: "transport-ahc"
        case .taskAsyncHTTPClient: "task-ahc"
        case .providerAsyncHTTPClient: "provider-ahc"
        case .stagesAsyncHTTPClient: "stages-ahc"
        }
    }

    init?(argument: String) {
        guard let kind = Self.allCases.first(where: { $0.argument == argument }) else { return nil }
        self = kind
    }

    func make(baseURL: URL) throws -> any BenchClient {
        switch self {
        case .bareURLSession: BareURLSessionClient(url: baseURL.appendingPathComponent("item"))
        case .delegateURLSession: DelegateURLSessionClient(url: baseURL.appendingPathComponent("item"))
        case .transportURLSession:
            TransportClient(url: baseURL.appendingPathComponent("item"), transport: URLSessionTransport())
        case .providerURLSession: ProviderClient(baseURL: baseURL, transport: URLSessionTransport())
        case .stagesURLSession: ProviderClient(baseURL: baseURL, transport: URLSessionTransport(), allStages: true)
        case .bareAsyncHTTPClient: BareAsyncHTTPClient(url: baseURL.appendingPathComponent("item"))
        case .workingAsyncHTTPClient:
            BareAsyncHTTPClient(url: baseURL.appendingPathComponent("item"), work: .microseconds(10))
        case .transportAsyncHTTPClient:
            TransportClient(url: baseURL.appendingPathComponent("item"), transport: AsyncHTTPClientTransport())
        case .taskAsyncHTTPClient:
            TransportClient(url: baseURL.appendingPathComponent("item"), transport: AsyncHTTPClientTransport(),
                            inTaskOfItsOwn: true)
        case .providerAsyncHTTPClient: ProviderClient(baseURL: baseURL, transport: AsyncHTTPClientTransport())
        case .stagesAsyncHTTPClient:
            ProviderClient(baseURL: baseURL, transport: AsyncHTTPClientTransport(), allStages: true)
        }
    }
}

/// `URLSession.data(for:)` with an ephemeral configuration, no delegate, 6 connections (the
/// transport's default too).
struct BareURLSessionClient: BenchClient {
    let session: URLSession
    let request: URLRequest

    init(url: URL) {
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
        guard (response as? HTTPURLResponse)?.statusCode == 200, data.count == BenchServer.body.count else {
            throw PeerFailure("bare URLSession got an unexpected answer")
        }
    }

    func close() async throws { session.finishTasksAndInvalidate() }
}

/// `URLSession` with a session delegate that collects each task's body as it arrives and
/// resumes its caller when the task completes; redirects are not followed. Nothing else: no
/// size limit, no idle timeout, no metrics. What it costs over `BareURLSessionClient` is what
/// the platform charges for delegate callbacks.
final class DelegateURLSessionClient: NSObject, BenchClient, URLSessionDataDelegate, @unchecked Sendable {
    // `tasks` is guarded by `lock`; `session` and `request` are set once in `init`.
    private let lock = NSLock()
    private var tasks: [Int: (continuation: CheckedContinuation<(Data, Int), any Error>, body: Data)] = [:]
    private var session: URLSession?
    private let request: URLRequest

    init(url: URL) {
        var request = URLRequest(url: url)
        request.setValue("Gateway-bench", forHTTPHeaderField: "User-Agent")
        self.request = request
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 6
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    func fetch() async throws {
        guard let session else { throw PeerFailure("the delegate URLSession client has no session") }
        let task = session.dataTask(with: request)
        let (body, status) = try await withCheckedThrowingContinuation { continuation in
            lock.withLock { tasks[task.taskIdentifier] = (continuation, Data()) }
            task.resume()
        }
        guard status == 200, body.count == BenchServer.body.count else {
            throw PeerFailure("the delegate URLSession client got an unexpected answer")
        }
    }

    func close() async throws { session?.finishTasksAndInvalidate() }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { tasks[dataTask.taskIdentifier]?.body.append(data) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = lock.withLock({ tasks.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            entry.continuation.resume(throwing: error)
        } else {
            entry.continuation.resume(returning: (entry.body, (task.response as? HTTPURLResponse)?.statusCode ?? 0))
        }
    }
}

/// `HTTPClient.execute` with the same client configuration `AsyncHTTPClientTransport` makes for
/// itself (8 connections per host, no redirects followed, decompression on), the body collected.
///
/// With `work`, each fetch then keeps the CPU busy that long, standing for what a caller does
/// with a response.
struct BareAsyncHTTPClient: BenchClient {
    let client: HTTPClient
    let url: String
    let work: Duration

    init(url: URL, work: Duration = .zero) {
        client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: AsyncHTTPClientTransport.clientConfiguration(for: .init())
        )
        self.url = url.absoluteString
        self.work = work
    }

    func fetch() async throws {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: "Gateway-bench")
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard response.status.code == 200, body.readableBytes == BenchServer.body.count else {
            throw PeerFailure("bare async-http-client got an unexpected answer")
        }
        if work > .zero {
            let end = ContinuousClock.now + work
            while ContinuousClock.now < end {}
        }
    }

    func close() async throws { try await client.shutdown() }
}

/// A `Provider` over a transport, decoding the body as `Data`, with a queue as wide as the
/// widest load (64), so that the queue does not hold requests the bare client would send.
///
/// With `allStages`, every stage has work: a bearer token is attached, a `ResponseCache` over a
/// memory store plans each request (key and partition) and is offered each response (the policy
/// is `networkOnly` and identical requests are not shared, so every request still reaches the
/// server, as the bare client's do), and an observer tallies every request's metrics.
struct ProviderClient: BenchClient {
    let provider: Provider
    let transport: any Transport
    let endpoint: Endpoint<Data>

    init(baseURL: URL, transport: any Transport, allStages: Bool = false) {
        self.transport = transport
        endpoint = allStages ? Endpoint<Data>.get("item").cachePolicy(.networkOnly) : Endpoint<Data>.get("item")
        provider = Provider(baseURL: baseURL, transport: transport) { config in
            config.queue = PriorityRequestQueue(maxConcurrentRequests: 64)
            guard allStages else { return }
            config.auth = .bearer("peers-benchmark-token")
            config.cache = ResponseCache(store: MemoryCacheStore(), deduplicatesRequests: false)
            config.observers = [MetricsTally()]
        }
    }

    func fetch() async throws {
        let response = try await provider.send(endpoint)
        guard response.value.count == BenchServer.body.count else {
            throw PeerFailure("the provider got an unexpected answer")
        }
    }

    func close() async throws {
        provider.invalidate()
        try await (transport as? AsyncHTTPClientTransport)?.shutdown()
    }
}

/// `Transport.send` called directly, without a `Provider`: the transport's share of the cost.
struct TransportClient: BenchClient {
    let transport: any Transport
    let request: HTTPRequest

    /// Whether each request runs in a task of its own, as a `Provider` runs it.
    let inTaskOfItsOwn: Bool

    init(url: URL, transport: any Transport, inTaskOfItsOwn: Bool = false) {
        self.transport = transport
        request = HTTPRequest(method: .get, url: url, headers: ["User-Agent": "Gateway-bench"])
        self.inTaskOfItsOwn = inTaskOfItsOwn
    }

    func fetch() async throws {
        guard inTaskOfItsOwn else { return try await send() }
        let task: Task<Void, any Error>
        if #available(macOS 26.0, *) {
            task = Task.immediate { try await send() }
        } else {
            task = Task { try await send() }
        }
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    private func send() async throws {
        let response = try await transport.send(request).collect(upTo: request.maxResponseBytes)
        guard response.status == 200, response.body.count == BenchServer.body.count else {
            throw PeerFailure("the transport got an unexpected answer")
        }
    }

    func close() async throws { try await (transport as? AsyncHTTPClientTransport)?.shutdown() }
}

/// An observer that adds up every finished request's metrics, as an app's metrics sink would.
final class MetricsTally: Observer, @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var requests = 0
    private var transport = Duration.zero
    private var total = Duration.zero

    func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {
        lock.lock()
        defer { lock.unlock() }
        requests += 1
        transport += metrics.transportDuration
        total += metrics.total
    }
}
