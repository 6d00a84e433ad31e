import AsyncHTTPClient
import Foundation
import Gateway
@testable import GatewayAsyncHTTPClient
import GatewayTesting
import Testing

/// `AsyncHTTPClientTransport` against `LoopbackServer`: every check of the shared transport
/// conformance suite, then its lifecycle and what is particular to it.
@Suite struct AsyncHTTPClientTransportTests {
    static let conformance = TransportConformance(
        shutdown: { transport in try await (transport as? AsyncHTTPClientTransport)?.shutdown() },
        makeTransport: { settings in
            AsyncHTTPClientTransport(
                configuration: .init(timeout: settings.timeout, maxRedirects: settings.maxRedirects))
        }
    )

    @Test(arguments: TransportConformance.Check.allCases)
    func passesTheTransportConformanceCheck(_ check: TransportConformance.Check) async throws {
        try await Self.conformance.run(check)
    }

    /// The checks' requests mostly carry a 30 s idle timeout and no deadline: with the same
    /// default timeout, the transport leaves the timing to its client instead of a watchdog.
    static let conformanceWithClientTiming = TransportConformance(
        shutdown: { transport in try await (transport as? AsyncHTTPClientTransport)?.shutdown() },
        makeTransport: { settings in
            AsyncHTTPClientTransport(configuration: .init(timeout: .seconds(30), maxRedirects: settings.maxRedirects))
        }
    )

    @Test(arguments: TransportConformance.Check.allCases)
    func passesTheTransportConformanceCheckWhenTheClientKeepsTime(_ check: TransportConformance.Check) async throws {
        try await Self.conformanceWithClientTiming.run(check)
    }

    @Test func aRedirectWithoutLocationKeepsItsBody() async throws {
        let server = try LoopbackServer { _ in .text("moved, but where?", status: 302) }
        defer { server.shutdown() }
        let transport = AsyncHTTPClientTransport()
        let response = try await transport.send(HTTPRequest(method: .get, url: try server.url("/"))).collect(upTo: HTTPRequest.defaultMaxResponseBytes)
        try await transport.shutdown()
        #expect(response.status == 302)
        #expect(String(decoding: response.body, as: UTF8.self) == "moved, but where?")
    }

    @Test func shuttingDownTwiceIsHarmlessAndLaterSendsFailClearly() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.shutdown() }
        let transport = AsyncHTTPClientTransport()
        _ = try await transport.send(HTTPRequest(method: .get, url: try server.url("/"))).collect(upTo: HTTPRequest.defaultMaxResponseBytes)
        try await transport.shutdown()
        try await transport.shutdown()

        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(HTTPRequest(method: .get, url: try server.url("/"))).collect(upTo: HTTPRequest.defaultMaxResponseBytes)
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.fix?.contains("shutdown()") == true)
        #expect(server.requests.count == 1)
    }

    @Test func aBorrowedClientIsLeftRunningForItsOwner() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.shutdown() }
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: AsyncHTTPClientTransport.clientConfiguration(for: .init())
        )
        let first = AsyncHTTPClientTransport(client: client)
        _ = try await first.send(HTTPRequest(method: .get, url: try server.url("/a"))).collect(upTo: HTTPRequest.defaultMaxResponseBytes)
        try await first.shutdown()

        let second = AsyncHTTPClientTransport(client: client)
        let response = try await second.send(HTTPRequest(method: .get, url: try server.url("/b"))).collect(upTo: HTTPRequest.defaultMaxResponseBytes)
        #expect(String(decoding: response.body, as: UTF8.self) == "ok")
        #expect(server.requests.map(\.path) == ["/a", "/b"])
        try await client.shutdown()
    }

    @Test func aBorrowedClientShutDownByItsOwnerFailsClearly() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.shutdown() }
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: AsyncHTTPClientTransport.clientConfiguration(for: .init())
        )
        try await client.shutdown()
        let transport = AsyncHTTPClientTransport(client: client)
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(HTTPRequest(method: .get, url: try server.url("/")))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("shut down") == true, "\(String(describing: error))")
        #expect(server.requests.isEmpty)
    }

    @Test func aTransportDroppedWithoutShutdownReleasesItsClient() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.shutdown() }
        var transport: AsyncHTTPClientTransport? = AsyncHTTPClientTransport()
        let response = try await transport?.send(HTTPRequest(method: .get, url: try server.url("/"))).collect(upTo: HTTPRequest.defaultMaxResponseBytes)
        #expect(response?.status == 200)
        // Dropping the last reference starts the client's shutdown; a client dropped while
        // running would trap here (debug builds) instead.
        transport = nil
    }

    @Test func oneOriginHasOneEventLoopWhateverTheCaseOfItsNameAndOthersSpreadOut() async throws {
        // The shared client's group has a loop per core, and is never shut down.
        let transport = AsyncHTTPClientTransport(client: .shared)
        func loop(_ url: String) throws -> ObjectIdentifier {
            ObjectIdentifier(transport.eventLoop(for: try #require(URL(string: url))) as AnyObject)
        }
        #expect(try loop("http://api.example.com/a") == loop("HTTP://API.Example.COM/b?c=d"))
        #expect(try loop("https://api.example.com:8443/") == loop("https://API.example.com:8443/x"))
        for index in 0..<12 {
            #expect(try loop("http://host\(index).example.com/") == loop("HTTP://HOST\(index).Example.Com/path"))
        }
        let origins = try (0..<32).map { try loop("http://host\($0).example.com/") }
        if transport.eventLoops.count > 1 {
            #expect(Set(origins).count > 1, "32 origins all on one of \(transport.eventLoops.count) event loops")
        }
    }

    @Test func theConfigurationIsClamped() {
        let transport = AsyncHTTPClientTransport(configuration: .init(timeout: .zero, maxRedirects: 99))
        #expect(transport.configuration.maxRedirects == 20)
        #expect(transport.configuration.timeout == .milliseconds(1))
        let none = AsyncHTTPClientTransport(configuration: .init(maxRedirects: -3))
        #expect(none.configuration.maxRedirects == 0)
    }
}

/// The path where the client keeps time itself: the transport's own client, a request with the
/// configured idle timeout and no deadline.
@Suite struct AsyncHTTPClientTransportClientTimeoutTests {
    @Test func aStalledServerEndsInTheConfiguredIdleTimeout() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .stall) }
        defer { server.shutdown() }
        let transport = AsyncHTTPClientTransport(configuration: .init(timeout: .milliseconds(500)))
        let started = ContinuousClock.now
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(HTTPRequest(method: .get, url: try server.url("/stall"))).collect(upTo: HTTPRequest.defaultMaxResponseBytes)
        }
        try await transport.shutdown()
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("per-request timeout") == true)
        #expect(error?.underlying is HTTPClientError)
    }

    @Test func aStallAfterPartOfTheBodyEndsInTheConfiguredIdleTimeout() async throws {
        let server = try LoopbackServer { _ in
            LoopbackResponse(body: Data(count: 10_000), fault: .throttleBody(chunk: 1_000, every: .seconds(60)))
        }
        defer { server.shutdown() }
        let transport = AsyncHTTPClientTransport(configuration: .init(timeout: .milliseconds(500)))
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(HTTPRequest(method: .get, url: try server.url("/slow"))).collect(upTo: HTTPRequest.defaultMaxResponseBytes)
        }
        try await transport.shutdown()
        #expect(error?.kind == .timeout)
    }

    @Test func aTrickleThatNeverPausesForTheTimeoutArrivesWhole() async throws {
        let payload = TransportConformance.bytes(3_000, seed: 5)
        let server = try LoopbackServer { _ in
            .data(payload).with(fault: .throttleBody(chunk: 100, every: .milliseconds(100)))
        }
        defer { server.shutdown() }
        let transport = AsyncHTTPClientTransport(configuration: .init(timeout: .seconds(2)))
        let response = try await transport.send(HTTPRequest(method: .get, url: try server.url("/trickle"))).collect(upTo: HTTPRequest.defaultMaxResponseBytes)
        try await transport.shutdown()
        #expect(response.body == payload)
    }
}
