// The examples of Sources/GatewayLoopback, which GatewayTesting exports.
import GatewayTesting
import Foundation

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

// LoopbackResponse.file(_:for:etag:lastModified:honoursRanges:)
func loopbackFile() throws {
    let file = Data(repeating: 7, count: 1_000)
    let server = try LoopbackServer { request in
        LoopbackResponse.file(file, for: request, etag: "\"v1\"")
    }
    server.shutdown()
}

// LoopbackBodyStream
func loopbackBodyStream() throws {
    let go = LoopbackGate(), sent = LoopbackGate()
    let server = try LoopbackServer { _ in
        var response = LoopbackResponse(headers: ["Content-Type": "text/event-stream"])
        response.stream = LoopbackBodyStream(next: {
            guard !sent.isOpen else { return nil }   // one piece, then the end
            await go.wait()                          // held back until the test calls go.open()
            sent.open()
            return Data("data: tick\n\n".utf8)
        })
        return response
    }
    server.shutdown()
}
