// The examples of Sources/Gateway/Transport and Sources/Gateway/Support.
import Foundation
import Gateway

// RedirectChain
func redirects(request: HTTPRequest, send: (HTTPRequest) async throws -> HTTPResponse) async throws {
    var chain = RedirectChain(from: request, maxRedirects: 20)
    var current = request
    while true {
        let head = try await send(current)
        guard let next = try chain.next(status: head.status, headers: head.headers, after: current) else { break }
        current = next
    }
}

// Transport
struct EchoTransport: Transport {
    func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        StreamedResponse(HTTPResponse(status: 200, body: Data("ok".utf8), url: request.url))
    }
}

// StreamedResponse
func streamedResponse() {
    let streamed = StreamedResponse(HTTPResponse(status: 200, body: Data("ok".utf8)))
    _ = streamed
}

// StreamedResponse.collect(upTo:)
func collect(transport: any Transport, request: HTTPRequest) async throws {
    let response = try await transport.send(request).collect(upTo: request.maxResponseBytes)
    _ = response
}

// ResponseBody
func responseBody(transport: any Transport, request: HTTPRequest) async throws {
    let response = try await transport.send(request)
    var received = 0
    for try await chunk in response.body {
        received += chunk.count
    }
    print(received, response.body.metrics?.duration ?? .zero)
}

// ReachabilityMonitor
struct AlwaysOnline: ReachabilityMonitor {
    var currentPath: NetworkPath { NetworkPath(status: .satisfied, interfaces: [.wired]) }
    func waitUntilSatisfied() async throws {}
}

// ManualReachability
func manualReachability() {
    let network = ManualReachability(NetworkPath(status: .unsatisfied))
    // … a request that waits for connectivity is held …
    network.path = NetworkPath(status: .satisfied, interfaces: [.wifi])   // … and now proceeds
}

// TimeSource
struct Instantaneous: TimeSource {
    var now: ContinuousClock.Instant { .now }
    var date: Date { Date() }
    func sleep(for duration: Duration) async throws { try Task.checkCancellation() }
}

// ReadChunks
func serverSentEvents(transport: any Transport, request: HTTPRequest) async throws {
    let response = try await transport.send(request)
    for try await event in response.body.serverSentEvents() {
        print(event.type, event.data)
    }
}
