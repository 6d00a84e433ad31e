import Foundation
import Gateway

/// A `Transport` that answers from stubs and records every request, for unit tests.
///
/// ```swift
/// let stub = StubTransport()
/// stub.on(.get, "users/42", reply: .json(#"{"id": 42, "name": "Ada"}"#))
/// stub.on(.post, "orders", reply: .status(401), .json(#"{"id": 7}"#, status: 201))  // 401, then 201
/// stub.on(.get, "search", query: .exactly(["q": "jazz"]), reply: .json("[]").delayed(by: .milliseconds(20)))
/// let provider = Provider(baseURL: URL(string: "https://api.example.com/v1/")!, transport: stub)
/// // …
/// #expect(stub.requests.map(\.url.path) == ["/v1/users/42"])
/// ```
///
/// Stubs are tried in the order added; the first that matches answers. Its replies are used in
/// order and the last one repeats. A request no stub matches fails with a `GatewayError` of kind
/// `.transport` that lists the stubs (or, with `unmatched: .notFound`, gets a 404 whose body
/// lists them).
public final class StubTransport: Transport {
    /// What happens to a request no stub matches.
    public enum UnmatchedBehavior: Sendable {
        /// Throw a `GatewayError` of kind `.transport` listing the stubs.
        case fail
        /// Answer `404 Not Found` with a plain-text body listing the stubs.
        case notFound
    }

    private struct Stub {
        let matcher: StubMatcher
        let replies: [StubReply]
        var served = 0
    }

    private struct State {
        var stubs: [Stub] = []
        var recorded: [RecordedRequest] = []
    }

    private let state = Locked(State())
    /// What happens to a request no stub matches.
    public let unmatched: UnmatchedBehavior

    /// Creates a stub transport with no stubs.
    public init(unmatched: UnmatchedBehavior = .fail) { self.unmatched = unmatched }

    /// Adds a stub answering requests that `matcher` matches with `replies`, in order (the last
    /// one repeats).
    @discardableResult
    public func on(_ matcher: StubMatcher, reply replies: [StubReply]) -> StubTransport {
        let replies = replies.isEmpty ? [StubReply.status(200)] : replies
        state.withLock { $0.stubs.append(Stub(matcher: matcher, replies: replies)) }
        return self
    }

    /// Adds a stub for `method` and `path` (and `query`), answering with `replies` in order.
    @discardableResult
    public func on(_ method: HTTPMethod, _ path: StubMatcher.PathMatch, query: StubMatcher.QueryMatch = .any,
                   reply replies: StubReply...) -> StubTransport {
        on(StubMatcher(method: method, path: path, query: query), reply: replies)
    }

    /// Every request received, in order.
    public var requests: [RecordedRequest] { state.withLock { $0.recorded } }

    /// The requests `matcher` matches, in order.
    public func requests(matching matcher: StubMatcher) -> [RecordedRequest] {
        requests.filter { matcher.matches($0.request, body: $0.body) }
    }

    /// Removes every stub and recorded request.
    public func reset() { state.withLock { $0 = State() } }

    /// Records the request, finds its stub and answers after the stub's latency, with the whole
    /// body in one chunk (or in the chunks `StubReply.inChunks(of:)` asks for).
    ///
    /// - Throws: the stub's failure, `CancellationError` when cancelled during latency, or a
    ///   `GatewayError` of kind `.transport` for an unmatched request or an unreadable body file.
    public func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        let body = try Self.bodyBytes(of: request)
        let recorded = RecordedRequest(request: request, body: body)
        let (reply, stubs) = state.withLock { state -> (StubReply?, [String]) in
            state.recorded.append(recorded)
            guard let index = state.stubs.firstIndex(where: { $0.matcher.matches(request, body: body) }) else {
                return (nil, state.stubs.map(\.matcher.label))
            }
            let stub = state.stubs[index]
            state.stubs[index].served += 1
            return (stub.replies[min(stub.served, stub.replies.count - 1)], [])
        }
        guard let reply else { return StreamedResponse(try answerUnmatched(request, stubs: stubs)) }
        if let gate = reply.gate { try await gate.wait() }
        if let delay = reply.delay { try await Task.sleep(for: delay) }
        try Task.checkCancellation()
        switch reply.outcome {
        case .response(var response):
            if response.url == nil { response.url = request.url }
            if response.transportMetrics.bytesReceived == 0 {
                response.transportMetrics.bytesReceived = Int64(response.body.count)
            }
            if response.transportMetrics.bytesSent == 0 { response.transportMetrics.bytesSent = Int64(body.count) }
            guard let size = reply.chunkSize else { return StreamedResponse(response) }
            return Self.streamed(response, inChunksOf: size)
        case .failure(let error):
            throw error
        }
    }

    /// `response` with its body cut into chunks of `size` bytes, handed out as they are read.
    private static func streamed(_ response: HTTPResponse, inChunksOf size: Int) -> StreamedResponse {
        let body = response.body, metrics = response.transportMetrics
        let chunks = stride(from: 0, to: body.count, by: max(1, size)).map { body[$0..<min($0 + max(1, size), body.count)] }
        let stream = AsyncThrowingStream<Data, any Error> { continuation in
            for chunk in chunks { continuation.yield(Data(chunk)) }
            continuation.finish()
        }
        return StreamedResponse(
            status: response.status, headers: response.headers, url: response.url,
            body: ResponseBody(stream, metrics: { _ in metrics }))
    }

    private func answerUnmatched(_ request: HTTPRequest, stubs: [String]) throws -> HTTPResponse {
        let list = stubs.isEmpty ? "none" : stubs.enumerated().map { "[\($0.offset + 1)] \($0.element)" }
            .joined(separator: ", ")
        let message = "no stub matches \(request); stubs: \(list)"
        switch unmatched {
        case .fail:
            throw GatewayError(.transport, "StubTransport: " + message,
                               fix: "add a stub with stub.on(method, path, reply: …)", request: request)
        case .notFound:
            return HTTPResponse(status: 404, headers: ["Content-Type": "text/plain; charset=utf-8"],
                                body: Data(message.utf8), url: request.url)
        }
    }

    private static func bodyBytes(of request: HTTPRequest) throws -> Data {
        switch request.body {
        case nil: return Data()
        case .data(let data)?: return data
        case .file(let url, _, _)?:
            do {
                return try Data(contentsOf: url)
            } catch {
                throw GatewayError(.transport, "StubTransport could not read the request's body file",
                                   request: request, underlying: error)
            }
        }
    }
}
