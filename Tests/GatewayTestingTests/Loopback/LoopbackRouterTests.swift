import Foundation
import Testing
import GatewayTesting

/// Routing, response helpers and gates.
@Suite struct LoopbackRouterTests {
    private func router() -> LoopbackRouter {
        var router = LoopbackRouter()
        router.get("/users/1") { _ in .json(#"{"id":1}"#) }
        router.post("/users") { request in .text("created \(request.text)", status: 201) }
        router.route(nil, "/files/*") { request in .text("file \(request.path)") }
        return router
    }

    @Test func routesMatchOnMethodAndPath() async throws {
        let router = router()
        let user = try await router.handle(LoopbackRequest(method: "GET", target: "/users/1?expand=true"))
        #expect(user.status == 200)
        #expect(user.headers["Content-Type"] == "application/json")
        let created = try await router.handle(LoopbackRequest(method: "POST", target: "/users", body: Data("ann".utf8)))
        #expect(created.status == 201)
        #expect(String(decoding: created.body, as: UTF8.self) == "created ann")
        let file = try await router.handle(LoopbackRequest(method: "DELETE", target: "/files/a/b"))
        #expect(String(decoding: file.body, as: UTF8.self) == "file /files/a/b")
    }

    @Test func aWrongMethodGets405AndAnUnknownPath404() async throws {
        let router = router()
        let wrong = try await router.handle(LoopbackRequest(method: "DELETE", target: "/users/1"))
        #expect(wrong.status == 405)
        #expect(wrong.headers["Allow"] == "GET")
        let unknown = try await router.handle(LoopbackRequest(method: "GET", target: "/nowhere"))
        #expect(unknown.status == 404)
        #expect(String(decoding: unknown.body, as: UTF8.self).contains("GET /nowhere"))
    }

    @Test func aServerAnswersThroughItsRouter() async throws {
        let server = try LoopbackServer(router: router())
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write("GET /users/1 HTTP/1.1\r\n\r\n")
        #expect(try await connection.readResponse().text == #"{"id":1}"#)
    }

    @Test func responseHelpersSetTypeStatusAndLocation() {
        struct Item: Codable, Sendable { var b = 2, a = 1 }
        let json = LoopbackResponse.json(encoding: Item(), status: 202)
        #expect(String(decoding: json.body, as: UTF8.self) == #"{"a":1,"b":2}"#)
        #expect(json.status == 202)
        #expect(LoopbackResponse.text("hi").headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(LoopbackResponse.redirect(to: "/next", status: 307).headers["Location"] == "/next")
        #expect(LoopbackResponse.status(204).body.isEmpty)
        #expect(LoopbackResponse.text("x").with(fault: .stall).fault == .stall)
    }

    @Test func aGateLetsWaitersThroughOnceOpenAndStaysOpen() async {
        let gate = LoopbackGate()
        #expect(!gate.isOpen)
        async let waited: Void = gate.wait()
        gate.open()
        await waited
        await gate.wait()
        #expect(gate.isOpen)
    }

    @Test func aCancelledWaiterIsReleased() async {
        let gate = LoopbackGate()
        let waiter = Task { await gate.wait() }
        waiter.cancel()
        await waiter.value
        #expect(!gate.isOpen)
    }
}
