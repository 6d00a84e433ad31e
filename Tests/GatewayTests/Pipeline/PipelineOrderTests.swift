import Foundation
import Gateway
import GatewayTesting
import Testing

/// The order every step runs in, read off the stages themselves, for the configurations the
/// pipeline's numbered list names: the default, a response cache, and a token store.
@Suite struct PipelineOrderTests {
    /// What each stage records when it runs.
    final class StepLog: Sendable {
        private let steps = Locked<[String]>([])
        func add(_ step: String) { steps.withLock { $0.append(step) } }
        var all: [String] { steps.value }
    }

    /// A requestable that records steps 1, 8 and 9; its body decodes unless it says `undecodable`.
    struct Recorded: Requestable {
        let log: StepLog
        var name: String { "GET items" }
        func prepare(baseURL: URL) throws -> PreparedRequest {
            log.add("build")
            return PreparedRequest(name: name, method: .get, url: try PreparedRequest.url(baseURL, "items"),
                                   parameters: [RequestParameters(["page": 1], encoder: RecordingEncoder(log: log))])
        }
        func validate(_ response: HTTPResponse, context: ResponseDecodingContext) -> GatewayError? {
            log.add("validate")
            return response.isSuccess ? nil : GatewayError(.status, "HTTP \(response.status)", response: response)
        }
        func decode(_ response: HTTPResponse, context: ResponseDecodingContext) throws -> String {
            log.add("decode")
            let text = String(decoding: response.body, as: UTF8.self)
            guard text != "undecodable" else { throw GatewayError(.decoding, "not a text this test reads") }
            return text
        }
    }

    struct RecordingEncoder: ParameterEncoder {
        let log: StepLog
        func encode(_ parameters: any Encodable & Sendable, into request: inout HTTPRequest,
                    context: ParameterEncodingContext) throws {
            log.add("encode")
        }
    }

    struct RecordingQueue: RequestQueue {
        let log: StepLog
        func enqueue(_ context: RequestContext) async throws -> QueueTicket {
            log.add("queue")
            return QueueTicket(id: context.id)
        }
        func finished(_ ticket: QueueTicket) async { log.add("queue released") }
    }

    struct RecordingAuth: AuthStage {
        let log: StepLog
        func authorize(_ request: PreparedRequest, context: RequestContext) async throws -> PreparedRequest {
            log.add("auth")
            return request
        }
        func cachePartition(for request: PreparedRequest) async -> CachePartition? { .anonymous }
    }

    /// Records where the token stage attaches the credential.
    struct RecordingAuthenticator: Authenticator {
        let log: StepLog
        func refresh(_ credential: Credential, using client: RefreshClient) async throws -> Credential { credential }
        func headers(for credential: Credential) -> HTTPHeaders {
            log.add("auth")
            return ["Authorization": "Bearer \(credential.accessToken)"]
        }
    }

    struct RecordingInterceptor: Interceptor {
        let log: StepLog
        func adapt(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
            log.add("adapt")
            return request
        }
        func decide(_ response: HTTPResponse, for request: HTTPRequest, context: RequestContext) async throws
            -> Decision
        {
            log.add("decide")
            return .continue
        }
    }

    struct RecordingObserver: Observer {
        let log: StepLog
        func requestSent(_ request: HTTPRequest, context: RequestContext) { log.add("transport") }
        func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {
            log.add("metrics")
        }
    }

    enum Configuration: String, CaseIterable {
        case defaults, responseCache, tokenStore
    }

    static func provider(_ configuration: Configuration, body: String, log: StepLog) -> Provider {
        let stub = StubTransport().on(.get, "items", reply: .text(body, headers: ["Cache-Control": "max-age=60"]))
        return makeProvider(stub) { config in
            config.queue = RecordingQueue(log: log)
            config.interceptors = [RecordingInterceptor(log: log)]
            config.observers = [RecordingObserver(log: log)]
            switch configuration {
            case .defaults:
                config.auth = RecordingAuth(log: log)
            case .responseCache:
                config.auth = RecordingAuth(log: log)
                config.cache = ResponseCache(store: RecordingCacheStore(onEvent: log.add))
            case .tokenStore:
                config.tokens = MemoryTokenStore(Credential(accessToken: "t0ken", subject: "user-1"))
                config.authenticator = RecordingAuthenticator(log: log)
                config.cache = ResponseCache(store: RecordingCacheStore(onEvent: log.add))
            }
        }
    }

    /// Steps 1–11 as the list gives them. Step 2's cache key is made from the URL a GET goes to,
    /// so the encoders make its query there too ("encode" before "cache look-up"), and the
    /// partition is the session's subject (with a token store, the credential is read: "auth").
    /// The token stage attaches the credential in step 4 and makes sure the attempt carries it
    /// in step 6.
    static func expected(_ configuration: Configuration) -> [String] {
        switch configuration {
        case .defaults:
            ["build", "queue", "auth", "encode", "adapt", "transport", "decide", "validate", "queue released",
             "decode", "metrics"]
        case .responseCache:
            ["build", "encode", "cache look-up", "queue", "auth", "encode", "adapt", "transport", "decide",
             "validate", "queue released", "decode", "cache store", "metrics"]
        case .tokenStore:
            ["build", "encode", "auth", "cache look-up", "queue", "auth", "encode", "auth", "adapt", "transport",
             "decide", "validate", "queue released", "decode", "cache store", "metrics"]
        }
    }

    @Test(arguments: Configuration.allCases)
    func everyStepRunsInTheOrderOfTheList(_ configuration: Configuration) async throws {
        let log = StepLog()
        let provider = Self.provider(configuration, body: "shelf", log: log)
        #expect(try await provider.send(Recorded(log: log)).value == "shelf")
        #expect(log.all == Self.expected(configuration))
    }

    @Test(arguments: [Configuration.responseCache, .tokenStore])
    func aResponseThatFailsToDecodeIsNotStored(_ configuration: Configuration) async throws {
        let log = StepLog()
        let provider = Self.provider(configuration, body: "undecodable", log: log)
        let error = try await #require(throws: GatewayError.self) { try await provider.send(Recorded(log: log)) }
        #expect(error.kind == .decoding)
        #expect(log.all.contains("decode"))
        #expect(!log.all.contains("cache store"))
        #expect(log.all.last == "metrics")
    }

    @Test func aStoredAnswerSkipsEveryNetworkStep() async throws {
        let log = StepLog()
        let provider = Self.provider(.responseCache, body: "shelf", log: log)
        _ = try await provider.send(Recorded(log: log))
        let first = log.all.count
        #expect(try await provider.send(Recorded(log: log)).value == "shelf")
        #expect(Array(log.all.dropFirst(first)) == ["build", "encode", "cache look-up", "decode", "metrics"])
    }
}
