// The examples of Sources/GatewayLoopback, which GatewayTesting exports.
import GatewayTesting

// LoopbackGate
func loopbackGate() throws {
    let arrived = LoopbackGate(), release = LoopbackGate()
    let server = try LoopbackServer { _ in
        arrived.open()
        await release.wait()
        return .text("done")
    }
    server.shutdown()
}

// LoopbackRouter
func loopbackRouter() throws {
    var router = LoopbackRouter()
    router.get("/users/1") { _ in .json(#"{"id":1}"#) }
    router.post("/upload") { request in .text("\(request.body.count)") }
    let server = try LoopbackServer(router: router)
    server.shutdown()
}

// LoopbackServer
func loopbackServer() throws {
    let server = try LoopbackServer { request in
        request.path == "/slow" ? .text("late").with(fault: .delayHeaders(.seconds(2))) : .json(#"{"ok":true}"#)
    }
    defer { server.shutdown() }
    let url = try server.url("/users?id=1")
    _ = url
}
