#if canImport(Testing)
import Foundation
import Gateway
import Testing

extension TransportConformance {
    func runFault(_ check: Check) async throws {
        switch check {
        case .aBodyCutOffMidwayIsAnErrorNeverASuccess: try await cutOff()
        case .aStalledServerEndsInATimeoutInsideTheDeadline: try await stall()
        case .aStallAfterPartOfTheBodyEndsInATimeout: try await stallMidBody()
        case .theTimeoutIsAnIdleTimeoutNotALimitOnTheWholeTransfer: try await idleTimeout()
        case .aDeadlineShorterThanDelayedHeadersEndsInATimeout: try await deadlineBeforeHeaders()
        case .aDeadlineAlreadyPastFailsBeforeSending: try await deadlinePast()
        case .anOversizedBodyEndsInResponseTooLargeWithoutHoldingIt: try await oversized()
        case .aBodyExactlyAtTheLimitIsAccepted: try await exactlyAtLimit()
        case .aResetConnectionIsATransportError: try await reset()
        case .aClosedPortIsATransportErrorThatSaysWhere: try await closedPort()
        case .cancellingTheTaskCancelsTheRequestPromptly: try await cancelInFlight()
        case .aTaskCancelledBeforeSendingNeverReachesTheServer: try await cancelBeforeSending()
        case .requestsHTTPCannotCarryAreRefusedBeforeSending: try await refusedBeforeSending()
        case .aMissingBodyFileIsAnInvalidRequest: try await missingBodyFile()
        case .errorDescriptionsNeverShowTokens: try await noTokensInErrors()
        default: Issue.record("\(check) is not a fault check")
        }
    }

    /// The error `request` ends with, or `nil` (recorded as an issue) when it succeeded or threw another type.
    func failure(of request: HTTPRequest, settings: Settings = Settings()) async throws -> GatewayError? {
        try await withTransport(settings) { transport in
            await #expect(throws: GatewayError.self) { try await Self.collect(transport, request) }
        }
    }

    private func cutOff() async throws {
        for chunked in [false, true] {
            let server = try LoopbackServer { _ in
                LoopbackResponse(body: Self.bytes(200_000), chunked: chunked, fault: .closeMidBody(afterBytes: 50_000))
            }
            defer { server.shutdown() }
            let error = try await failure(of: try Self.request(server, "/cut"))
            #expect(error?.kind == .transport, "chunked: \(chunked)")
            #expect(error?.description.contains("connection lost") == true, "\(String(describing: error))")
        }
    }

    private func stall() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .stall) }
        defer { server.shutdown() }
        let deadline = ContinuousClock.now + .seconds(10)
        let error = try await failure(
            of: try Self.request(server, "/stall", timeout: .milliseconds(500), deadline: deadline))
        #expect(ContinuousClock.now < deadline)
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("per-request timeout") == true)
        #expect(error?.fix?.contains("timeout") == true)
    }

    private func stallMidBody() async throws {
        let server = try LoopbackServer { _ in
            LoopbackResponse(body: Data(count: 10_000), fault: .throttleBody(chunk: 1_000, every: .seconds(60)))
        }
        defer { server.shutdown() }
        let error = try await failure(
            of: try Self.request(
                server, "/slow", timeout: .milliseconds(500), deadline: .now + .seconds(10)))
        #expect(error?.kind == .timeout)
    }

    private func idleTimeout() async throws {
        // 60 pieces 100 ms apart take about 6 s in all, longer than the 4 s timeout, but
        // there are never four seconds without data (a wide margin for a loaded machine).
        let payload = Self.bytes(6_000, seed: 5)
        let server = try LoopbackServer { _ in
            .data(payload).with(fault: .throttleBody(chunk: 100, every: .milliseconds(100)))
        }
        defer { server.shutdown() }
        let request = try Self.request(server, "/trickle", timeout: .seconds(4))
        let response = try await withTransport { try await Self.collect($0, request) }
        #expect(Self.difference(response.body, from: payload) == nil)
    }

    private func deadlineBeforeHeaders() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse.text("late").with(fault: .delayHeaders(.seconds(30))) }
        defer { server.shutdown() }
        let started = ContinuousClock.now
        let error = try await failure(
            of: try Self.request(
                server, "/late", timeout: .seconds(60), deadline: started + .milliseconds(500)))
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("deadline") == true)
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    private func deadlinePast() async throws {
        let server = try LoopbackServer { _ in .text("never") }
        defer { server.shutdown() }
        let error = try await failure(of: try Self.request(server, "/", deadline: .now - .seconds(1)))
        #expect(error?.kind == .timeout)
        #expect(server.requests.isEmpty)
    }

    private func oversized() async throws {
        for chunked in [false, true] {
            let server = try LoopbackServer { _ in
                LoopbackResponse(body: Data(count: 5 * 1024 * 1024), chunked: chunked)
            }
            defer { server.shutdown() }
            let error = try await failure(of: try Self.request(server, "/big", maxResponseBytes: 64 * 1024))
            #expect(error?.kind == .responseTooLarge, "chunked: \(chunked)")
            #expect(error?.message.contains("65536") == true)
            #expect(error?.fix?.contains("maxResponseBytes") == true)
            #expect(error?.response == nil)
        }
    }

    private func exactlyAtLimit() async throws {
        let payload = Self.bytes(64 * 1024)
        let server = try LoopbackServer { _ in LoopbackResponse(body: payload, chunked: true) }
        defer { server.shutdown() }
        let request = try Self.request(server, "/", maxResponseBytes: payload.count)
        let response = try await withTransport { try await Self.collect($0, request) }
        #expect(Self.difference(response.body, from: payload) == nil)
    }

    private func reset() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .resetConnection) }
        defer { server.shutdown() }
        let error = try await failure(of: try Self.request(server, "/reset"))
        #expect(error?.kind == .transport)
        #expect(error?.underlying != nil)
    }

    private func closedPort() async throws {
        let server = try LoopbackServer { _ in .text("unused") }
        let request = try Self.request(server, "/")
        server.shutdown()
        let error = try await failure(of: request)
        #expect(error?.kind == .transport)
        #expect(error?.message.contains("127.0.0.1:\(server.port)") == true, "\(String(describing: error))")
        #expect(error?.underlying != nil)
    }

    private func cancelInFlight() async throws {
        let arrived = LoopbackGate()
        let server = try LoopbackServer { _ in
            arrived.open()
            return LoopbackResponse(fault: .stall)
        }
        defer { server.shutdown() }
        let request = try Self.request(server, "/wait", timeout: .seconds(60))
        let result = try await withTransport { transport in
            let call = Task { try await Self.collect(transport, request) }
            await arrived.wait()
            call.cancel()
            return await call.result
        }
        #expect(throws: CancellationError.self) { try result.get() }
    }

    private func cancelBeforeSending() async throws {
        let server = try LoopbackServer { _ in .text("should not run") }
        defer { server.shutdown() }
        let request = try Self.request(server, "/")
        let result = try await withTransport { transport in
            let start = LoopbackGate()
            let call = Task {
                await start.wait()
                return try await Self.collect(transport, request)
            }
            call.cancel()
            start.open()
            return await call.result
        }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(server.requests.isEmpty)
    }

    private func refusedBeforeSending() async throws {
        let cases: [(String, HTTPMethod, HTTPHeaders, Data)] = [
            ("GET with a body", .get, HTTPHeaders(), Data("x".utf8)),
            (
                "a line break in a header", .post, HTTPHeaders([.init(name: "X-Evil", value: "a\r\nInjected: yes")]),
                Data()
            ),
        ]
        let server = try LoopbackServer { _ in .text("should not run") }
        defer { server.shutdown() }
        for (name, method, headers, body) in cases {
            let error = try await failure(
                of: try Self.request(server, "/", method: method, headers: headers, body: .data(body)))
            #expect(error?.kind == .invalidRequest, "\(name)")
            #expect(error?.fix != nil, "\(name)")
        }
        #expect(server.requests.isEmpty)
    }

    private func missingBodyFile() async throws {
        let server = try LoopbackServer { _ in .text("should not run") }
        defer { server.shutdown() }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gateway-missing-\(UUID().uuidString)")
        let error = try await failure(
            of: try Self.request(
                server, "/", method: .post, body: .file(missing, length: 10, removeAfterSending: false)))
        #expect(error?.kind == .invalidRequest)
        #expect(server.requests.isEmpty)
    }

    private func noTokensInErrors() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .resetConnection) }
        defer { server.shutdown() }
        let error = try await failure(
            of: try Self.request(
                server, "/x?access_token=query-secret", headers: ["Authorization": "Bearer header-secret"]))
        let text = try #require(error).description
        #expect(!text.contains("query-secret"))
        #expect(!text.contains("header-secret"))
    }
}
#endif
