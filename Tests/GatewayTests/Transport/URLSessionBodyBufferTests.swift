import Foundation
@testable import Gateway
import GatewayTesting
import Testing

/// `URLSessionTransport` with a reader slower than the network: a body that can be continued
/// with a range is held under `bodyBufferLimit` (the exchange is ended there and the rest asked
/// for with `Range` and `If-Range`); any other body is held whole, as before.
@Suite(.timeLimit(.minutes(2))) struct URLSessionBodyBufferTests {
    static let limit = 1024 * 1024
    /// One piece of the platform may pass the limit before the exchange ends.
    static let slack = 256 * 1024

    let transport = URLSessionTransport(configuration: .init(bodyBufferLimit: Self.limit))

    func request(_ server: LoopbackServer) throws -> HTTPRequest {
        try TransportConformance.request(server, "/file", maxResponseBytes: .max)
    }

    @Test func aBodyReadSlowlyStaysUnderTheLimitAndEndsWithTheExactBytes() async throws {
        let file = Downloads.payload(8 * 1024 * 1024)
        let server = try LoopbackServer { LoopbackResponse.file(file, for: $0, etag: "\"v1\"") }
        defer { server.shutdown() }
        let response = try await transport.send(try request(server))
        var iterator = response.body.makeAsyncIterator()
        var received = Data()

        // The reader holds still until the transport has ended the exchange at the limit, reads
        // 2 MiB (which starts the request for the rest), then holds still again.
        await transport.bufferStatistics.pauses(reaching: 1)
        while received.count < 2 * 1024 * 1024, let chunk = try await iterator.next() { received.append(chunk) }
        await transport.bufferStatistics.pauses(reaching: 2)
        while let chunk = try await iterator.next() { received.append(chunk) }

        #expect(received == file)
        let statistics = transport.bufferStatistics.current
        #expect(statistics.peakBuffered <= Self.limit + Self.slack)
        #expect(statistics.pauses >= 2)
        #expect(statistics.resumptions == statistics.pauses)
        let requests = server.requests
        #expect(requests.count == statistics.pauses + 1)
        #expect(requests.first?.headers["Range"] == nil)
        for rest in requests.dropFirst() {
            let range = try #require(rest.headers["Range"])
            #expect(range.hasPrefix("bytes=") && range.hasSuffix("-\(file.count - 1)"))
            #expect(rest.headers["If-Range"] == "\"v1\"")
        }
        #expect(response.body.metrics?.bytesReceived == Int64(file.count))
    }

    @Test func aRangeOfAPartialResponseIsContinuedWithinItsBounds() async throws {
        let file = Downloads.payload(6 * 1024 * 1024)
        let server = try LoopbackServer { LoopbackResponse.file(file, for: $0, lastModified: "Tue, 24 Nov 2026 10:00:00 GMT") }
        defer { server.shutdown() }
        var asked = try request(server)
        asked.headers["Range"] = "bytes=1000-4999999"
        let response = try await transport.send(asked)
        #expect(response.status == 206)
        var iterator = response.body.makeAsyncIterator()
        await transport.bufferStatistics.pauses(reaching: 1)
        var received = Data()
        while let chunk = try await iterator.next() { received.append(chunk) }

        #expect(received == file.subdata(in: 1000..<5_000_000))
        let rest = try #require(server.requests.dropFirst().first)
        #expect(rest.headers["Range"]?.hasSuffix("-4999999") == true)
        #expect(rest.headers["If-Range"] == "Tue, 24 Nov 2026 10:00:00 GMT")
    }

    @Test(arguments: [RestAnswer.ignoresTheRange, .changesTheETag])
    func aServerThatDoesNotSendTheRestEndsTheBodyWithAClearError(_ answer: RestAnswer) async throws {
        let old = Downloads.payload(4 * 1024 * 1024, seed: 1), new = Downloads.payload(4 * 1024 * 1024, seed: 2)
        let script = ScriptedFile(
            first: { LoopbackResponse.file(old, for: $0, etag: "\"v1\"") },
            later: { request in
                switch answer {
                case .ignoresTheRange: LoopbackResponse.file(old, for: request, etag: "\"v1\"", honoursRanges: false)
                case .changesTheETag: LoopbackResponse.file(new, for: request, etag: "\"v2\"")
                }
            })
        let server = try LoopbackServer { script.answer($0) }
        defer { server.shutdown() }
        let response = try await transport.send(try request(server))
        var iterator = response.body.makeAsyncIterator()
        await transport.bufferStatistics.pauses(reaching: 1)
        var received = Data()
        let error = await #expect(throws: GatewayError.self) {
            while let chunk = try await iterator.next() { received.append(chunk) }
        }

        #expect(error?.kind == .transport)
        #expect(error?.message.contains("the body was cut off after \(received.count) bytes") == true)
        #expect(error?.message.contains(answer.explanation) == true)
        #expect(received == old.prefix(received.count))
        // Retried as a lost connection: a download resumes from its file, or starts over.
        #expect(try RetryPolicy().isRetryable(#require(error)))
    }

    enum RestAnswer: Sendable, CustomTestStringConvertible {
        case ignoresTheRange, changesTheETag

        var explanation: String {
            switch self {
            case .ignoresTheRange: "the server ignored the range or the representation changed"
            case .changesTheETag: #"the representation changed (ETag "v1", now "v2")"#
            }
        }

        var testDescription: String {
            switch self {
            case .ignoresTheRange: "ignores the range"
            case .changesTheETag: "changes the ETag"
            }
        }
    }

    @Test func aBodyWithoutAValidatorStillStreamsWhole() async throws {
        let file = Downloads.payload(3 * 1024 * 1024)
        let server = try LoopbackServer { LoopbackResponse.file(file, for: $0) }
        defer { server.shutdown() }
        let response = try await transport.send(try request(server))
        var received = Data()
        for try await chunk in response.body { received.append(chunk) }

        #expect(received == file)
        #expect(transport.bufferStatistics.current.pauses == 0)
        #expect(server.requests.count == 1)
    }
}
