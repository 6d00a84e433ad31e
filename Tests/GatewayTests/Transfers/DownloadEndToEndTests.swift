import Foundation
@testable import Gateway
import GatewayTesting
import Testing

/// Downloads through a `Provider` over the real `URLSessionTransport`, against files served by
/// the loopback server with range requests, validators and dropped connections.
@Suite(.timeLimit(.minutes(2))) struct DownloadEndToEndTests {
    let folder: TemporaryFolder
    let destination: URL

    init() throws {
        folder = try TemporaryFolder()
        destination = folder.url.appendingPathComponent("track.flac")
    }

    @Test func aDownloadWritesTheExactBytesAndItsProgressReachesTheTotal() async throws {
        defer { folder.remove() }
        let file = Downloads.payload(3_000_000)
        let server = try LoopbackServer { LoopbackResponse.file(file, for: $0, etag: "\"v1\"") }
        defer { server.shutdown() }
        let provider = try Downloads.provider(server)

        let download = provider.download(Endpoint<Data>.get("files/track.flac"), to: destination)
        async let steps = Downloads.steps(of: download)
        let response = try await download.response

        #expect(response.value == destination)
        #expect(response.status == 200)
        #expect(try Downloads.sha256(of: destination) == Downloads.sha256(file))
        #expect(await steps.last == TransferProgress(completedBytes: 3_000_000, expectedBytes: 3_000_000))
        #expect(!Downloads.exists(Downloads.partial(of: destination)))
        #expect(folder.contents == ["track.flac"])
        #expect(server.requests.first?.headers["Range"] == nil)
        #expect(server.requests.first?.headers["Accept-Encoding"] == "identity")
    }

    @Test func aFastDownloadReportsProgressPerMiBOrTenthOfASecondRatherThanPerChunk() async throws {
        defer { folder.remove() }
        let file = Downloads.payload(8_000_000)
        let server = try LoopbackServer { LoopbackResponse.file(file, for: $0, etag: "\"v1\"") }
        defer { server.shutdown() }
        let provider = try Downloads.provider(server)

        let started = ContinuousClock.now
        let download = provider.download(Endpoint<Data>.get("files/track.flac"), to: destination)
        async let steps = Downloads.steps(of: download)
        _ = try await download.value
        let elapsed = ContinuousClock.now - started
        let reported = await steps

        // Each value past the first (0 bytes) and before the last takes a MiB or a tenth of a
        // second since the one before; per chunk, 8 MB would be a hundred values or more.
        let bound = 2 + 8_000_000 / 1_048_576 + Int(elapsed / .milliseconds(100))
        #expect(reported.count <= bound, "\(reported.count) values in \(elapsed)")
        #expect(reported.last == TransferProgress(completedBytes: 8_000_000, expectedBytes: 8_000_000))
    }

    @Test func aConnectionDroppedHalfwayIsResumedWithARangeRequest() async throws {
        defer { folder.remove() }
        let file = Downloads.payload(4_000_000)
        let script = ScriptedFile(
            first: {
                LoopbackResponse.file(file, for: $0, etag: "\"v1\"").with(fault: .closeMidBody(afterBytes: 2_000_000))
            },
            later: { LoopbackResponse.file(file, for: $0, etag: "\"v1\"") })
        let server = try LoopbackServer { script.answer($0) }
        defer { server.shutdown() }
        let provider = try Downloads.provider(server)

        let download = provider.download(Endpoint<Data>.get("files/track.flac"), to: destination)
        async let steps = Downloads.steps(of: download)
        let response = try await download.response

        #expect(response.status == 206)
        #expect(response.metrics.retries == 1)
        let requests = server.requests
        #expect(requests.count == 2)
        let range = try #require(requests.last?.headers["Range"])
        let offset = try #require(Int(range.dropFirst("bytes=".count).dropLast()))
        #expect(range.hasPrefix("bytes=") && range.hasSuffix("-"))
        #expect((1...2_000_000).contains(offset))
        #expect(requests.last?.headers["If-Range"] == "\"v1\"")
        #expect(try Downloads.sha256(of: destination) == Downloads.sha256(file))
        #expect(await steps.last == TransferProgress(completedBytes: 4_000_000, expectedBytes: 4_000_000))
        #expect(folder.contents == ["track.flac"])
    }

    @Test func aChangedETagStartsTheFileOver() async throws {
        defer { folder.remove() }
        let old = Downloads.payload(2_000_000, seed: 1), new = Downloads.payload(2_500_000, seed: 2)
        let script = ScriptedFile(
            first: {
                LoopbackResponse.file(old, for: $0, etag: "\"v1\"").with(fault: .closeMidBody(afterBytes: 1_000_000))
            },
            later: { LoopbackResponse.file(new, for: $0, etag: "\"v2\"") })
        let server = try LoopbackServer { script.answer($0) }
        defer { server.shutdown() }
        let provider = try Downloads.provider(server)

        let response = try await provider.download(Endpoint<Data>.get("files/track.flac"), to: destination).response

        #expect(response.status == 200)
        #expect(server.requests.last?.headers["If-Range"] == "\"v1\"")
        #expect(try Downloads.sha256(of: destination) == Downloads.sha256(new))
    }

    @Test func aServerThatIgnoresTheRangeStartsTheFileOver() async throws {
        defer { folder.remove() }
        let file = Downloads.payload(2_000_000)
        let modified = "Tue, 24 Nov 2026 10:00:00 GMT"
        let script = ScriptedFile(
            first: {
                LoopbackResponse.file(file, for: $0, lastModified: modified, honoursRanges: false)
                    .with(fault: .closeMidBody(afterBytes: 1_000_000))
            },
            later: { LoopbackResponse.file(file, for: $0, lastModified: modified, honoursRanges: false) })
        let server = try LoopbackServer { script.answer($0) }
        defer { server.shutdown() }
        let provider = try Downloads.provider(server)

        let response = try await provider.download(Endpoint<Data>.get("files/track.flac"), to: destination).response

        #expect(response.status == 200)
        #expect(server.requests.last?.headers["Range"] != nil)
        #expect(server.requests.last?.headers["If-Range"] == modified)
        #expect(try Downloads.sha256(of: destination) == Downloads.sha256(file))
    }

    @Test func aResponseWithoutAValidatorIsNotResumed() async throws {
        defer { folder.remove() }
        let file = Downloads.payload(2_000_000)
        let script = ScriptedFile(
            first: { LoopbackResponse.file(file, for: $0).with(fault: .closeMidBody(afterBytes: 1_000_000)) },
            later: { LoopbackResponse.file(file, for: $0) })
        let server = try LoopbackServer { script.answer($0) }
        defer { server.shutdown() }
        let provider = try Downloads.provider(server)

        let response = try await provider.download(Endpoint<Data>.get("files/track.flac"), to: destination).response

        #expect(response.status == 200)
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.headers["Range"] == nil })
        #expect(try Downloads.sha256(of: destination) == Downloads.sha256(file))
    }

    @Test func aRangeAnswerForOtherBytesFailsAndDiscardsThePartialFile() async throws {
        defer { folder.remove() }
        let file = Downloads.payload(1_000_000)
        let script = ScriptedFile(
            first: {
                LoopbackResponse.file(file, for: $0, etag: "\"v1\"").with(fault: .closeMidBody(afterBytes: 500_000))
            },
            later: { _ in
                LoopbackResponse(status: 206, headers: ["Content-Range": "bytes 10-19/1000000", "ETag": "\"v1\""],
                                 body: file.subdata(in: 10..<20))
            })
        let server = try LoopbackServer { script.answer($0) }
        defer { server.shutdown() }
        let provider = try Downloads.provider(server)

        let failure = await #expect(throws: GatewayError.self) {
            try await provider.download(Endpoint<Data>.get("files/track.flac"), to: destination).value
        }

        #expect(failure?.kind == .download)
        #expect(failure?.message.contains("Content-Range bytes 10-19/1000000") == true)
        #expect(failure?.endpoint == "GET files/track.flac")
        #expect(folder.contents.isEmpty)
    }
}
