import Foundation
@testable import Gateway
import GatewayLoopback
import GatewayTestSupport
import GatewayTesting
import Testing

/// `Provider.stream` end to end: `URLSessionTransport` against the loopback server, which sends
/// each piece of the body only when the test opens its gate.
@Suite(.quietScheduler, .timeLimit(.minutes(1))) struct ProviderStreamTests {
    @Test func chunksArriveBeforeTheBodyEnds() async throws {
        let body = GatedPieces(["data: one\n\n", "data: two\n\n", "data: three\n\n"])
        let server = try LoopbackServer { _ in body.response(contentType: "text/event-stream") }
        defer { server.shutdown() }
        let provider = Self.provider(server)

        let stream = try await provider.stream(Endpoint<Data>.get("events"))
        var events: [String] = []
        for try await event in stream.serverSentEvents() {
            // The server sends the next piece only now: this one arrived before the body ended.
            #expect(body.sent == events.count + 1)
            events.append(event.data)
            body.release()
        }

        #expect(stream.status == 200)
        #expect(stream.headers["Content-Type"] == "text/event-stream")
        #expect(events == ["one", "two", "three"])
        #expect(body.ending == .complete)
    }

    @Test func linesArriveAsTheyAreSent() async throws {
        let body = GatedPieces(["first\nsec", "ond\r\n", "third"])
        let server = try LoopbackServer { _ in body.response(contentType: "text/plain") }
        defer { server.shutdown() }

        let stream = try await Self.provider(server).stream(Endpoint<Data>.get("log"))
        var lines: [String] = []
        for try await line in stream.lines {
            lines.append(line)
            if line != "third" { body.release() }
        }
        #expect(lines == ["first", "second", "third"])
    }

    @Test func aRefusedTokenIsRefreshedThenTheStreamFlows() async throws {
        let body = GatedPieces(["data: hello\n\n"])
        let server = try LoopbackServer { request in
            if request.path.hasSuffix("/auth/refresh") {
                return .json(#"{"access_token":"at-1","refresh_token":"rt-2","expires_in":3600}"#)
            }
            guard request.headers["Authorization"] == "Bearer at-1" else {
                return .json(#"{"error":"expired"}"#, status: 401)
            }
            return body.response(contentType: "text/event-stream")
        }
        defer { server.shutdown() }
        let provider = Provider(baseURL: try server.url("/api/"), transport: URLSessionTransport()) { config in
            config.tokens = MemoryTokenStore(Credential(accessToken: "old", refreshToken: "rt-1"))
            config.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
        }

        let stream = try await provider.stream(Endpoint<Data>.get("events"))
        var events: [String] = []
        for try await event in stream.serverSentEvents() { events.append(event.data) }

        #expect(events == ["hello"])
        #expect(stream.metrics.authReplays == 1)
        #expect(stream.request.headers["Authorization"] == "Bearer at-1")
        #expect(server.requests.map(\.path) == ["/api/events", "/api/auth/refresh", "/api/events"])
    }

    @Test func aFailedStatusIsThrownWithItsBody() async throws {
        let server = try LoopbackServer { _ in .json(#"{"message":"no such feed"}"#, status: 404) }
        defer { server.shutdown() }

        let failure = await #expect(throws: GatewayError.self) {
            _ = try await Self.provider(server).stream(Endpoint<Data>.get("feeds/7"))
        }
        #expect(failure?.kind == .status)
        #expect(failure?.response?.status == 404)
        #expect(failure?.response.map { String(decoding: $0.body, as: UTF8.self) } == #"{"message":"no such feed"}"#)
    }

    @Test func cancellingTheReadingTaskClosesTheConnection() async throws {
        let body = GatedPieces(["data: first\n\n"], thenEndlessly: "data: more\n\n")
        let server = try LoopbackServer { _ in body.response(contentType: "text/event-stream") }
        defer { server.shutdown() }
        let provider = Self.provider(server)
        let firstRead = LoopbackGate()

        let reader = Task {
            let stream = try await provider.stream(Endpoint<Data>.get("events"))
            for try await _ in stream.serverSentEvents() {
                firstRead.open()
            }
        }
        await firstRead.wait()
        reader.cancel()
        // Only now does the server go on sending, until it finds the connection closed.
        body.release()
        await body.ended.wait()

        #expect(body.ending == .clientClosed)
        await #expect(throws: CancellationError.self) { try await reader.value }
    }

    @Test func leavingTheLoopClosesTheConnection() async throws {
        let body = GatedPieces(["data: first\n\n"], thenEndlessly: "data: more\n\n")
        let server = try LoopbackServer { _ in body.response(contentType: "text/event-stream") }
        defer { server.shutdown() }

        let stream = try await Self.provider(server).stream(Endpoint<Data>.get("events"))
        for try await _ in stream.serverSentEvents() { break }
        body.release()
        await body.ended.wait()

        #expect(body.ending == .clientClosed)
    }

    @Test func anOpenStreamHoldsNoQueueTicket() async throws {
        let body = GatedPieces(["data: first\n\n", "data: last\n\n"])
        let server = try LoopbackServer { request in
            request.path.hasSuffix("/events") ? body.response(contentType: "text/event-stream") : .json("{}")
        }
        defer { server.shutdown() }
        let provider = Self.provider(server) { $0.queue = PriorityRequestQueue(maxConcurrentRequests: 1) }

        let stream = try await provider.stream(Endpoint<Data>.get("events"))
        var events = stream.serverSentEvents().makeAsyncIterator()
        #expect(try await events.next()?.data == "first")
        // The stream is still open, and the only ticket is free for another request.
        let other = try await provider.send(Endpoint<Data>.get("other"))
        body.release()

        #expect(other.status == 200)
        #expect(try await events.next()?.data == "last")
        #expect(try await events.next() == nil)
    }

    @Test func theDeadlineBoundsTheWaitForTheHead() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .stall) }
        defer { server.shutdown() }
        let provider = Self.provider(server) { $0.deadline = .milliseconds(300) }

        let failure = await #expect(throws: GatewayError.self) {
            _ = try await provider.stream(Endpoint<Data>.get("events"))
        }
        #expect(failure?.kind == .timeout)
    }

    static func provider(_ server: LoopbackServer, configure: (inout Provider.Configuration) -> Void = { _ in })
        -> Provider
    {
        // Force-unwrap-free: the loopback server's URL for "/" always parses.
        let base = (try? server.url("/api/")) ?? URL(fileURLWithPath: "/")
        return Provider(baseURL: base, transport: URLSessionTransport()) { config in
            config.retryPolicy = .none
            config.deadline = .seconds(30)
            configure(&config)
        }
    }
}

/// A streamed body whose first piece goes at once and each later one when the test calls
/// `release()`; then, when asked, the same piece endlessly, until the client closes the connection.
final class GatedPieces: Sendable {
    enum Ending: Equatable { case complete, clientClosed }

    private struct State {
        var sent = 0
        var released = 0
        var waiting: CheckedContinuation<Void, Never>?
        var ending: Ending?
    }

    private let pieces: [String]
    private let endless: String?
    private let state = Locked(State())
    /// Opens when the body has ended, either way.
    let ended = LoopbackGate()

    init(_ pieces: [String], thenEndlessly endless: String? = nil) {
        self.pieces = pieces
        self.endless = endless
    }

    /// How many pieces the server has produced.
    var sent: Int { state.withLock { $0.sent } }
    /// How the body ended, once it has.
    var ending: Ending? { state.withLock { $0.ending } }

    /// Lets the next piece go (and, after the last listed piece, the endless ones).
    func release() {
        let waiting = state.withLock { state in
            state.released += 1
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume()
    }

    func response(contentType: String) -> LoopbackResponse {
        var response = LoopbackResponse(headers: ["Content-Type": contentType])
        response.stream = LoopbackBodyStream(next: { await self.next() }, ended: { clientClosed in
            self.state.withLock { $0.ending = clientClosed ? .clientClosed : .complete }
            self.ended.open()
        })
        return response
    }

    private func next() async -> Data? {
        let index = state.withLock { $0.sent }
        if index >= pieces.count, endless == nil { return nil }
        if index > 0, index <= pieces.count { await waitForRelease(index) }
        state.withLock { $0.sent += 1 }
        return Data((index < pieces.count ? pieces[index] : endless ?? "").utf8)
    }

    /// Waits until `release()` has been called `count` times.
    private func waitForRelease(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.released >= count { return true }
                state.waiting = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// `Provider.serverSentEvents`: reconnection as the HTML standard's `EventSource` does it.
@Suite(.quietScheduler, .timeLimit(.minutes(1))) struct ServerSentEventReconnectionTests {
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
