import Foundation
import Gateway
import GatewayTesting

/// The base URL every unit test uses.
let testBaseURL = URL(string: "https://api.example.com/v1/")!

/// A provider over `stub` with the test base URL.
func makeProvider(_ stub: StubTransport, configure: (inout Provider.Configuration) -> Void = { _ in }) -> Provider {
    Provider(baseURL: testBaseURL, transport: stub) { config in
        // No whole-call deadline: with the whole suite queued on two threads, a real-time deadline
        // would measure that queue, not the code. Deadlines have tests of their own.
        config.deadline = nil
        configure(&config)
    }
}

/// A fresh request to encode into.
func blankRequest(_ url: String = "https://api.example.com/v1/items") -> HTTPRequest {
    HTTPRequest(method: .post, url: URL(string: url)!)
}

/// The body bytes of an encoded request, read from the file for a file body.
func bodyBytes(_ request: HTTPRequest) throws -> Data {
    switch request.body {
    case nil: Data()
    case .data(let data)?: data
    case .file(let url, _, _)?: try Data(contentsOf: url)
    }
}

/// Appends every event it sees, in order, as short strings.
final class EventLog: Observer {
    let events = Locked<[String]>([])
    var all: [String] { events.value }

    func requestEnqueued(_ context: RequestContext) { events.withLock { $0.append("enqueued") } }
    func requestDequeued(_ context: RequestContext) { events.withLock { $0.append("dequeued") } }
    func requestEncoded(_ request: HTTPRequest, context: RequestContext) {
        events.withLock { $0.append("encoded \(context.attempt)") }
    }
    func requestSent(_ request: HTTPRequest, context: RequestContext) {
        events.withLock { $0.append("sent \(context.attempt)") }
    }
    func responseReceived(_ response: HTTPResponse, for request: HTTPRequest, context: RequestContext) {
        events.withLock { $0.append("received \(response.status)") }
    }
    func requestRetried(after delay: Duration?, context: RequestContext) {
        events.withLock { $0.append("retried") }
    }
    func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {
        let text = switch outcome {
        case .success(let response): "finished success \(response.status)"
        case .failure(let error): "finished failure \(error.kind)"
        case .cancelled: "finished cancelled"
        }
        events.withLock { $0.append(text) }
    }
}

/// A JSON encoder that counts how often it runs.
struct CountingEncoder: ParameterEncoder {
    let calls = Locked(0)

    func encode(_ parameters: any Encodable & Sendable, into request: inout HTTPRequest,
                context: ParameterEncodingContext) throws {
        calls.withLock { $0 += 1 }
        try JSONParameterEncoder().encode(parameters, into: &request, context: context)
    }
}

/// An interceptor driven by closures, for one-off behaviour in tests.
struct TestInterceptor: Interceptor {
    var onAdapt: @Sendable (HTTPRequest, RequestContext) async throws -> HTTPRequest = { request, _ in request }
    var onResponse: @Sendable (HTTPResponse, RequestContext) async throws -> Decision = { _, _ in .continue }
    var onFailure: @Sendable (GatewayError, RequestContext) async throws -> Decision = { _, _ in .continue }

    func adapt(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
        try await onAdapt(request, context)
    }
    func decide(_ response: HTTPResponse, for request: HTTPRequest, context: RequestContext) async throws -> Decision {
        try await onResponse(response, context)
    }
    func decide(_ failure: GatewayError, for request: HTTPRequest, context: RequestContext) async throws -> Decision {
        try await onFailure(failure, context)
    }
}

struct User: Codable, Sendable, Equatable {
    var id: Int
    var name: String
}

struct APIProblem: Codable, Sendable, Equatable {
    var code: String
    var message: String
}

/// A unique folder under the system's temporary directory, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
