import Foundation
@testable import Gateway
import GatewayLoopback
import GatewayTestSupport
import GatewayTesting
import Testing

/// `Provider.stream` end to end: `URLSessionTransport` against the loopback server, which sends
/// each piece of the body only when the test opens its gate.
@Suite(.timeLimit(.minutes(2))) struct ProviderStreamTests {
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
            config.deadline = nil
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
            // No whole-call deadline: with the suite queued on two threads it would measure the
            // queue (see makeProvider). The deadline has a test of its own.
            config.deadline = nil
            configure(&config)
        }
    }
}
