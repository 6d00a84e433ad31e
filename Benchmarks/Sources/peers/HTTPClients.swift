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
    case transportURLSession = "URLSessionTransport alone"
    case providerURLSession = "Provider + URLSessionTransport"
    case bareAsyncHTTPClient = "bare async-http-client"
    case transportAsyncHTTPClient = "AsyncHTTPClientTransport alone"
    case providerAsyncHTTPClient = "Provider + AsyncHTTPClientTransport"

    /// The bare client a provider row is compared with.
    var bare: ClientKind {
        switch self {
        case .bareURLSession, .transportURLSession, .providerURLSession: .bareURLSession
        case .bareAsyncHTTPClient, .transportAsyncHTTPClient, .providerAsyncHTTPClient: .bareAsyncHTTPClient
        }
    }

    var argument: String {
        switch self {
        case .bareURLSession: "bare-urlsession"
        case .transportURLSession: "transport-urlsession"
        case .providerURLSession: "provider-urlsession"
        case .bareAsyncHTTPClient: "bare-ahc"
        case .transportAsyncHTTPClient: "transport-ahc"
        case .providerAsyncHTTPClient: "provider-ahc"
        }
    }

    init?(argument: String) {
        guard let kind = Self.allCases.first(where: { $0.argument == argument }) else { return nil }
        self = kind
    }

    func make(baseURL: URL) throws -> any BenchClient {
        switch self {
        case .bareURLSession: BareURLSessionClient(url: baseURL.appendingPathComponent("item"))
        case .transportURLSession:
            TransportClient(url: baseURL.appendingPathComponent("item"), transport: URLSessionTransport())
        case .providerURLSession: ProviderClient(baseURL: baseURL, transport: URLSessionTransport())
        case .bareAsyncHTTPClient: BareAsyncHTTPClient(url: baseURL.appendingPathComponent("item"))
        case .transportAsyncHTTPClient:
            TransportClient(url: baseURL.appendingPathComponent("item"), transport: AsyncHTTPClientTransport())
        case .providerAsyncHTTPClient: ProviderClient(baseURL: baseURL, transport: AsyncHTTPClientTransport())
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

/// `HTTPClient.execute` with the same client configuration `AsyncHTTPClientTransport` makes for
/// itself (8 connections per host, no redirects followed, decompression on), the body collected.
struct BareAsyncHTTPClient: BenchClient {
    let client: HTTPClient
    let url: String

    init(url: URL) {
        client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: AsyncHTTPClientTransport.clientConfiguration(for: .init())
        )
        self.url = url.absoluteString
    }

    func fetch() async throws {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: "Gateway-bench")
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard response.status.code == 200, body.readableBytes == BenchServer.body.count else {
            throw PeerFailure("bare async-http-client got an unexpected answer")
        }
    }

    func close() async throws { try await client.shutdown() }
}

/// A `Provider` over a transport, decoding the body as `Data`, with a queue as wide as the
/// widest load (64), so that the queue does not hold requests the bare client would send.
struct ProviderClient: BenchClient {
    let provider: Provider
    let transport: any Transport
    static let endpoint = Endpoint<Data>.get("item")

    init(baseURL: URL, transport: any Transport) {
        self.transport = transport
        provider = Provider(baseURL: baseURL, transport: transport) { config in
            config.queue = PriorityRequestQueue(maxConcurrentRequests: 64)
        }
    }

    func fetch() async throws {
        let response = try await provider.send(Self.endpoint)
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

    init(url: URL, transport: any Transport) {
        self.transport = transport
        request = HTTPRequest(method: .get, url: url, headers: ["User-Agent": "Gateway-bench"])
    }

    func fetch() async throws {
        let response = try await transport.send(request)
        guard response.status == 200, response.body.count == BenchServer.body.count else {
            throw PeerFailure("the transport got an unexpected answer")
        }
    }

    func close() async throws { try await (transport as? AsyncHTTPClientTransport)?.shutdown() }
}
