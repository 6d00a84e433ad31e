import Foundation
@testable import Gateway
import GatewayTestSupport
import GatewayTesting
import Testing

/// The real `URLSessionTransport` against `LoopbackServer`: every check of the shared transport
/// conformance suite, then what is particular to this transport.
@Suite(.quietScheduler) struct URLSessionTransportTests {
    static let conformance = TransportConformance { settings in
        URLSessionTransport(timeout: settings.timeout, maxRedirects: settings.maxRedirects)
    }

    @Test(arguments: TransportConformance.Check.allCases)
    func passesTheTransportConformanceCheck(_ check: TransportConformance.Check) async throws {
        try await Self.conformance.run(check)
    }

    @Test func aClosedPortKeepsThePlatformsURLErrorUnderneath() async throws {
        let server = try LoopbackServer { _ in .text("unused") }
        let request = try TransportConformance.request(server, "/")
        server.shutdown()
        let error = await #expect(throws: GatewayError.self) { try await URLSessionTransport().send(request).collect(upTo: request.maxResponseBytes) }
        #expect(error?.kind == .transport)
        #expect(error?.underlying is URLError)
    }

    @Test func aShortTimeoutPassesOnTimeWhileALongerOneIsWatched() async throws {
        // The long call registers first, so the short one must bring the watchdog's wake-up forward.
        let transport = URLSessionTransport()
        let longArrived = Gate()
        let server = try LoopbackServer { request in
            if request.path == "/long" { longArrived.open() }
            return LoopbackResponse(fault: .stall)
        }
        defer { server.shutdown() }
        let long = Task {
            try await transport.send(try TransportConformance.request(server, "/long", timeout: .seconds(120))).status
        }
        try await longArrived.wait()
        let started = ContinuousClock.now
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(try TransportConformance.request(server, "/short", timeout: .milliseconds(500))).status
        }
        #expect(error?.kind == .timeout)
        #expect(ContinuousClock.now - started < .seconds(60))
        long.cancel()
        await #expect(throws: CancellationError.self) { try await long.value }
    }

    #if canImport(Darwin)
    @Test func aRedirectWithoutLocationKeepsItsBody() async throws {
        // FoundationNetworking drops the body of a 3xx it does not redirect; Darwin keeps it.
        let server = try LoopbackServer { _ in .text("moved, but where?", status: 302) }
        defer { server.shutdown() }
        let request = try TransportConformance.request(server, "/")
        let response = try await URLSessionTransport().send(request).collect(upTo: request.maxResponseBytes)
        #expect(String(decoding: response.body, as: UTF8.self) == "moved, but where?")
    }
    #endif
}
