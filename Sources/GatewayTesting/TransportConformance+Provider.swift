#if canImport(Testing)
import Foundation
import Gateway
import Testing

extension TransportConformance {
    func runProvider(_ check: Check) async throws {
        switch check {
        case .providerSameOriginRedirectKeepsTheBearerToken: try await bearerKeptOnSameOrigin()
        case .providerCrossOriginRedirectArrivesWithoutAuthorization: try await bearerDroppedAcrossOrigins()
        case .providerBodyCutOffMidwayEndsInAnErrorNeverASuccess: try await providerCutOff()
        case .providerStalledServerEndsInATimeoutInsideTheDeadline: try await providerStall()
        case .providerDeadlineShorterThanTheTimeoutEndsTheCallAtTheDeadline: try await providerDeadline()
        case .providerOversizedBodyEndsInTheSizeLimitError: try await providerOversized()
        case .providerEndpointsOwnSizeLimitWinsOverTheProviders: try await providerEndpointLimit()
        default: Issue.record("\(check) is not a provider check")
        }
    }

    /// Runs `body` with a provider whose base URL is `/api/` on `server`, over a fresh transport.
    private func withProvider<T>(
        _ server: LoopbackServer,
        configure: (inout Provider.Configuration) -> Void = { _ in },
        _ body: (Provider) async throws -> T
    ) async throws -> T {
        let baseURL = try server.url("/api/")
        return try await withTransport { transport in
            let provider = Provider(baseURL: baseURL, transport: transport) { config in
                // Generous limits: nothing here should come near them, and a hang must still end.
                config.timeout = .seconds(30)
                config.deadline = .seconds(60)
                configure(&config)
            }
            return try await body(provider)
        }
    }

    private func bearerKeptOnSameOrigin() async throws {
        let server = try LoopbackServer { request in
            request.path == "/api/old" ? .redirect(to: "/api/new", status: 307) : .text("arrived")
        }
        defer { server.shutdown() }
        let response = try await withProvider(server, configure: { $0.auth = .bearer("s3cret") }) {
            try await $0.send(Endpoint<Data>.get("old"))
        }
        #expect(Self.text(response.value) == "arrived")
        #expect(response.httpResponse.url?.path == "/api/new")
        #expect(response.httpResponse.transportMetrics.redirects == 1)
        #expect(server.requests.map(\.path) == ["/api/old", "/api/new"])
        #expect(server.requests.map { $0.headers["Authorization"] } == ["Bearer s3cret", "Bearer s3cret"])
    }

    private func bearerDroppedAcrossOrigins() async throws {
        for status in [302, 307] {
            let other = try LoopbackServer { _ in .text("elsewhere") }
            defer { other.shutdown() }
            let target = try other.url("/landing")
            let server = try LoopbackServer { _ in .redirect(to: target, status: status) }
            defer { server.shutdown() }
            let response = try await withProvider(server, configure: { $0.auth = .bearer("s3cret") }) {
                try await $0.send(Endpoint<Data>.get("start").header("Cookie", "session=abc").header("X-Trace", "t-1"))
            }
            #expect(Self.text(response.value) == "elsewhere", "status \(status)")
            #expect(response.httpResponse.url?.port == other.port)
            #expect(server.requests.map { $0.headers["Authorization"] } == ["Bearer s3cret"])
            let arrived = try #require(other.requests.first)
            #expect(other.requests.count == 1)
            #expect(!arrived.headers.contains("Authorization"), "status \(status)")
            #expect(!arrived.headers.contains("Cookie"), "status \(status)")
            #expect(arrived.headers["X-Trace"] == "t-1")
        }
    }

    private func providerCutOff() async throws {
        for chunked in [false, true] {
            let server = try LoopbackServer { _ in
                LoopbackResponse(body: Self.bytes(300_000), chunked: chunked, fault: .closeMidBody(afterBytes: 100_000))
            }
            defer { server.shutdown() }
            let error = try await withProvider(server, configure: { $0.retryPolicy = .none }) { provider in
                await #expect(throws: GatewayError.self) { try await provider.send(Endpoint<Data>.get("track.mp3")) }
            }
            #expect(error?.kind == .transport, "chunked: \(chunked)")
            #expect(error?.endpoint == "GET track.mp3")
            #expect(error?.response == nil)
        }
    }

    private func providerStall() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .stall) }
        defer { server.shutdown() }
        let started = ContinuousClock.now
        let error = try await withProvider(
            server,
            configure: { config in
                config.timeout = .milliseconds(500)
                config.deadline = .seconds(20)
            }
        ) { provider in
            await #expect(throws: GatewayError.self) { try await provider.send(Endpoint<Data>.get("stall")) }
        }
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("per-request timeout") == true)
        #expect(error?.fix?.contains("timeout") == true)
        #expect(error?.endpoint == "GET stall")
    }

    private func providerDeadline() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .stall) }
        defer { server.shutdown() }
        let started = ContinuousClock.now
        let error = try await withProvider(server, configure: { $0.timeout = .seconds(60) }) { provider in
            await #expect(throws: GatewayError.self) {
                try await provider.send(Endpoint<Data>.get("stall").with { $0.deadline = .milliseconds(500) })
            }
        }
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("deadline") == true)
    }

    private func providerOversized() async throws {
        for chunked in [false, true] {
            let server = try LoopbackServer { _ in
                LoopbackResponse(body: Data(count: 4 * 1024 * 1024), chunked: chunked)
            }
            defer { server.shutdown() }
            let error = try await withProvider(server, configure: { $0.maxResponseBytes = 256 * 1024 }) { provider in
                await #expect(throws: GatewayError.self) { try await provider.send(Endpoint<Data>.get("huge")) }
            }
            #expect(error?.kind == .responseTooLarge, "chunked: \(chunked)")
            #expect(error?.message.contains("\(256 * 1024) bytes") == true)
            #expect(error?.fix?.contains("maxResponseBytes") == true)
            #expect(error?.endpoint == "GET huge")
        }
    }

    private func providerEndpointLimit() async throws {
        let payload = Self.bytes(300 * 1024)
        let server = try LoopbackServer { _ in .data(payload) }
        defer { server.shutdown() }
        let response = try await withProvider(server, configure: { $0.maxResponseBytes = 256 * 1024 }) {
            try await $0.send(Endpoint<Data>.get("big").with { $0.maxResponseBytes = 512 * 1024 })
        }
        #expect(response.value == payload)
    }
}
#endif
