import Foundation
@testable import Gateway
import GatewayLoopback
import GatewayTesting
import Testing

/// `Provider.serverSentEvents`: reconnection as the HTML standard's `EventSource` does it.
@Suite(.timeLimit(.minutes(2))) struct ServerSentEventReconnectionTests {
    /// Answers each connection in turn: the bodies (the one marked cut short after its first
    /// `cutAfter` bytes, the connection then closed), then `204 No Content`.
    static func server(_ bodies: [String], contentType: String = "text/event-stream",
                       cut: (index: Int, after: Int)? = nil) throws -> LoopbackServer {
        let served = Locked(0)
        return try LoopbackServer { _ in
            let index = served.withLock { count -> Int in
                defer { count += 1 }
                return count
            }
            guard index < bodies.count else { return .status(204) }
            let response = LoopbackResponse(headers: ["Content-Type": contentType], body: Data(bodies[index].utf8))
            guard let cut, cut.index == index else { return response }
            return response.with(fault: .closeMidBody(afterBytes: cut.after))
        }
    }

    @Test func aConnectionLostMidBodyReconnects() async throws {
        let first = "retry: 1\nid: 1\ndata: a\n\n"
        let server = try Self.server([first + "id: 2\ndata: never whole\n\n", "id: 2\ndata: b\n\n"],
                                     cut: (index: 0, after: first.utf8.count + 4))
        defer { server.shutdown() }

        var events: [String] = []
        for try await event in ProviderStreamTests.provider(server).serverSentEvents(Endpoint<Data>.get("prices")) {
            events.append(event.data)
        }

        #expect(events == ["a", "b"])
        #expect(server.requests.map { $0.headers["Last-Event-ID"] } == [nil, "1", "2"])
    }

    @Test func aLostStreamReconnectsWithTheLastEventIDUntilNoContent() async throws {
        let server = try Self.server([
            "retry: 1\nid: 1\ndata: a\n\nid: 2\ndata: b\n\n",
            "data: c\n\nid: 3\n\n",
        ])
        defer { server.shutdown() }
        let provider = ProviderStreamTests.provider(server)

        var events: [String] = []
        for try await event in provider.serverSentEvents(Endpoint<Data>.get("prices"), reconnectionTime: .seconds(60)) {
            events.append(event.data)
        }

        // The server's `retry: 1` (1 ms) replaced the 60 s given, or the test would time out.
        #expect(events == ["a", "b", "c"])
        #expect(server.requests.map { $0.headers["Last-Event-ID"] } == [nil, "2", "3"])
        #expect(server.requests.allSatisfy { $0.headers["Accept"] == "text/event-stream" })
    }

    @Test func aBodyThatIsNotAnEventStreamIsThrownAndNotRetried() async throws {
        let server = try Self.server(["{}"], contentType: "application/json")
        defer { server.shutdown() }

        let failure = await #expect(throws: GatewayError.self) {
            for try await _ in ProviderStreamTests.provider(server).serverSentEvents(Endpoint<Data>.get("prices")) {}
        }
        #expect(failure?.kind == .invalidResponse)
        #expect(server.requests.count == 1)
    }
}
