import Foundation
import Gateway
import GatewayTesting
import Testing

@Suite struct InterceptorTests {
    @Test func adaptChangesTheRequestSent() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(200))
        let provider = makeProvider(stub) {
            $0.interceptors = [
                TestInterceptor(onAdapt: { request, _ in
                    var request = request
                    request.headers["X-Trace"] = "one"
                    return request
                }),
                TestInterceptor(onAdapt: { request, _ in
                    var request = request
                    request.headers["X-Trace"] = (request.headers["X-Trace"] ?? "") + ",two"
                    return request
                }),
            ]
        }
        _ = try await provider.send(Endpoint<Empty>.get("x"))
        #expect(stub.requests.first?.headers["X-Trace"] == "one,two")
    }

    @Test func aRetryEncodesTheRequestAgain() async throws {
        let stub = StubTransport().on(.post, "orders", reply: .status(503), .json(#"{"id": 7, "name": "order"}"#))
        let encoder = CountingEncoder()
        let log = EventLog()
        let provider = makeProvider(stub) {
            $0.interceptors = [TestInterceptor(onResponse: { response, _ in
                response.status == 503 ? .retry(after: nil) : .continue
            })]
            $0.observers = [log]
        }
        let response = try await provider.send(Endpoint<User>.post("orders", body: ["item": "tea"], encoder: encoder))
        #expect(response.value.id == 7)
        #expect(encoder.calls.value == 2)
        #expect(response.metrics.attempts == 2)
        #expect(stub.requests.count == 2)
        #expect(stub.requests.map(\.bodyText) == [#"{"item":"tea"}"#, #"{"item":"tea"}"#])
        #expect(log.all == ["enqueued", "dequeued", "encoded 1", "sent 1", "received 503", "retried",
                            "encoded 2", "sent 2", "received 200", "finished success 200"])
    }

    @Test func aFailedAttemptCanBeRetried() async throws {
        let stub = StubTransport().on(.get, "x", reply: .failure(GatewayError(.timeout, "no answer")), .status(200))
        let provider = makeProvider(stub) {
            $0.interceptors = [TestInterceptor(onFailure: { failure, context in
                failure.kind == .timeout && context.attempt == 1 ? .retry(after: .milliseconds(1)) : .continue
            })]
        }
        let response = try await provider.send(Endpoint<Empty>.get("x"))
        #expect(response.metrics.attempts == 2)
        #expect(response.metrics.retryDelay >= .milliseconds(1))
    }

    @Test func failEndsWithTheInterceptorsError() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(200))
        let provider = makeProvider(stub) {
            $0.interceptors = [TestInterceptor(onResponse: { response, _ in
                .fail(GatewayError(.intercepted, "maintenance mode", response: response))
            })]
        }
        let error = try await #require(throws: GatewayError.self) { try await provider.send(Endpoint<Empty>.get("x")) }
        #expect(error.kind == .intercepted)
        #expect(error.message == "maintenance mode")
        #expect(error.endpoint == "GET x")
    }

    @Test func doneTakesTheGivenResponseAsTheSuccess() async throws {
        let stub = StubTransport().on(.get, "users/1", reply: .status(500))
        let provider = makeProvider(stub) {
            $0.interceptors = [
                TestInterceptor(onResponse: { response, _ in
                    response.status == 500
                        ? .done(HTTPResponse(status: 200, body: Data(#"{"id": 1, "name": "cached"}"#.utf8))) : .continue
                }),
                TestInterceptor(onResponse: { _, _ in .fail(GatewayError(.intercepted, "never asked")) }),
            ]
        }
        let response = try await provider.send(Endpoint<User>.get("users/1"))
        #expect(response.value.name == "cached")
        #expect(response.status == 200)
    }

    @Test func theFirstDecisionOtherThanContinueWins() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(418))
        let asked = Locked<[String]>([])
        let provider = makeProvider(stub) {
            $0.interceptors = [
                TestInterceptor(onResponse: { _, _ in asked.withLock { $0.append("first") }; return .continue }),
                TestInterceptor(onResponse: { _, _ in asked.withLock { $0.append("second") }; return .continue }),
            ]
        }
        let error = try await #require(throws: GatewayError.self) { try await provider.send(Endpoint<Empty>.get("x")) }
        #expect(error.message == "expected 2xx, got 418 I'm a teapot")
        #expect(asked.value == ["first", "second"])
    }

    @Test func retriesStopAtMaxAttempts() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(503))
        let provider = makeProvider(stub) {
            $0.interceptors = [TestInterceptor(onResponse: { _, _ in .retry(after: nil) })]
            $0.maxAttempts = 3
        }
        let error = try await #require(throws: GatewayError.self) { try await provider.send(Endpoint<Empty>.get("x")) }
        #expect(error.kind == .tooManyAttempts)
        #expect(error.status == 503)
        #expect(stub.requests.count == 3)
    }

    @Test func aRetryPastTheDeadlineFailsAtOnce() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(503))
        let provider = makeProvider(stub) {
            $0.interceptors = [TestInterceptor(onResponse: { _, _ in .retry(after: .seconds(3600)) })]
            $0.deadline = .seconds(60)
        }
        let error = try await #require(throws: GatewayError.self) { try await provider.send(Endpoint<Empty>.get("x")) }
        #expect(error.kind == .timeout)
        #expect(error.message.contains("deadline"))
        #expect(stub.requests.count == 1)
    }

    @Test func anInterceptorThatThrowsEndsTheRequestAsIntercepted() async throws {
        struct Boom: Error {}
        let stub = StubTransport().on(.get, "x", reply: .status(200))
        let provider = makeProvider(stub) {
            $0.interceptors = [TestInterceptor(onAdapt: { _, _ in throw Boom() })]
        }
        let error = try await #require(throws: GatewayError.self) { try await provider.send(Endpoint<Empty>.get("x")) }
        #expect(error.kind == .intercepted)
        #expect(error.underlying is Boom)
        #expect(stub.requests.isEmpty)
    }

    @Test func interceptorsSeeTheAttemptNumber() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(503), .status(503), .status(200))
        let attempts = Locked<[Int]>([])
        let provider = makeProvider(stub) {
            $0.interceptors = [TestInterceptor(
                onAdapt: { request, context in attempts.withLock { $0.append(context.attempt) }; return request },
                onResponse: { response, _ in response.status == 503 ? .retry(after: nil) : .continue })]
        }
        _ = try await provider.send(Endpoint<Empty>.get("x"))
        #expect(attempts.value == [1, 2, 3])
    }
}
