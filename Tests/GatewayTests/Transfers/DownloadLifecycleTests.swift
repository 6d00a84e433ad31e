import Foundation
@testable import Gateway
import GatewayTesting
import Testing

/// A download's life beyond one clean exchange: cancelled and resumed by a later call, refused
/// credentials refreshed and the download replayed, a destination that cannot be written.
@Suite(.timeLimit(.minutes(2))) struct DownloadLifecycleTests {
    let folder: TemporaryFolder
    let destination: URL

    init() throws {
        folder = try TemporaryFolder()
        destination = folder.url.appendingPathComponent("mix.wav")
    }

    @Test func aCancelledDownloadLeavesNothingAtTheDestinationAndALaterCallResumesIt() async throws {
        defer { folder.remove() }
        let file = Downloads.payload(2_000_000)
        let script = ScriptedFile(
            first: {
                LoopbackResponse.file(file, for: $0, etag: "\"v1\"")
                    // 31 pieces a second apart: the cancel, sent at the first progress, lands long before the end.
                    .with(fault: .throttleBody(chunk: 64 * 1024, every: .seconds(1)))
            },
            later: { LoopbackResponse.file(file, for: $0, etag: "\"v1\"") })
        let server = try LoopbackServer { script.answer($0) }
        defer { server.shutdown() }
        let provider = try Downloads.provider(server)

        let first = provider.download(Endpoint<Data>.get("files/mix.wav"), to: destination)
        for await step in first.progress where step.completedBytes > 0 {
            first.cancel()
        }
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(!Downloads.exists(destination))
        let kept = try #require(try FileManager.default.attributesOfItem(
            atPath: Downloads.partial(of: destination).path)[.size] as? NSNumber).int64Value
        #expect(kept > 0 && kept < 2_000_000)

        let second = try await provider.download(Endpoint<Data>.get("files/mix.wav"), to: destination).response

        #expect(second.status == 206)
        #expect(server.requests.last?.headers["Range"] == "bytes=\(kept)-")
        #expect(try Downloads.sha256(of: destination) == Downloads.sha256(file))
        #expect(folder.contents == ["mix.wav"])
    }

    @Test func aLaterCallThatDoesNotResumeStartsOver() async throws {
        defer { folder.remove() }
        let file = Downloads.payload(1_000_000)
        let script = ScriptedFile(
            first: {
                LoopbackResponse.file(file, for: $0, etag: "\"v1\"").with(fault: .closeMidBody(afterBytes: 400_000))
            },
            later: { LoopbackResponse.file(file, for: $0, etag: "\"v1\"") })
        let server = try LoopbackServer { script.answer($0) }
        defer { server.shutdown() }
        let provider = try Downloads.provider(server) { $0.retryPolicy = .none }

        await #expect(throws: GatewayError.self) {
            try await provider.download(Endpoint<Data>.get("files/mix.wav"), to: destination).value
        }
        #expect(Downloads.exists(Downloads.partial(of: destination)))
        #expect(!Downloads.exists(destination))

        let again = provider.download(Endpoint<Data>.get("files/mix.wav"), to: destination, resumingPartialFile: false)
        let response = try await again.response

        #expect(response.status == 200)
        #expect(server.requests.last?.headers["Range"] == nil)
        #expect(try Downloads.sha256(of: destination) == Downloads.sha256(file))
    }

    @Test func aRefusedCredentialIsRefreshedAndTheDownloadReplayed() async throws {
        defer { folder.remove() }
        let file = Downloads.payload(1_000_000)
        let server = try LoopbackServer { request in
            if request.path.hasSuffix("/auth/refresh") {
                return .json(#"{"access_token":"at-1","refresh_token":"rt-2","expires_in":3600}"#)
            }
            guard request.headers["Authorization"] == "Bearer at-1" else {
                return .json(#"{"error":"invalid_token"}"#, status: 401, headers: ["WWW-Authenticate": "Bearer"])
            }
            return LoopbackResponse.file(file, for: request, etag: "\"v1\"")
        }
        defer { server.shutdown() }
        let provider = try Downloads.provider(server) { config in
            config.tokens = MemoryTokenStore(Credential(accessToken: "old", refreshToken: "rt-1", subject: "user-1"))
            config.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
        }

        let response = try await provider.download(Endpoint<Data>.get("files/mix.wav"), to: destination).response

        #expect(response.metrics.authReplays == 1)
        #expect(server.requests.map(\.path) == ["/api/files/mix.wav", "/api/auth/refresh", "/api/files/mix.wav"])
        #expect(response.request.headers["Authorization"] == "Bearer at-1")
        #expect(try Downloads.sha256(of: destination) == Downloads.sha256(file))
        #expect(folder.contents == ["mix.wav"])
    }

    @Test func aFailedStatusKeepsItsBodyInTheErrorAndWritesNothing() async throws {
        defer { folder.remove() }
        let server = try LoopbackServer { _ in .json(#"{"error":"gone"}"#, status: 404) }
        defer { server.shutdown() }
        let provider = try Downloads.provider(server)

        let failure = await #expect(throws: GatewayError.self) {
            try await provider.download(Endpoint<Data>.get("files/mix.wav"), to: destination).value
        }

        #expect(failure?.kind == .status)
        #expect(failure?.response.map { String(decoding: $0.body, as: UTF8.self) } == #"{"error":"gone"}"#)
        #expect(folder.contents.isEmpty)
    }

    @Test func aDestinationInAMissingFolderFailsNamingThePath() async throws {
        defer { folder.remove() }
        let server = try LoopbackServer { LoopbackResponse.file(Downloads.payload(1000), for: $0) }
        defer { server.shutdown() }
        let provider = try Downloads.provider(server)
        let missing = folder.url.appendingPathComponent("no-such-folder/mix.wav")

        let failure = await #expect(throws: GatewayError.self) {
            try await provider.download(Endpoint<Data>.get("files/mix.wav"), to: missing).value
        }

        #expect(failure?.kind == .download)
        #expect(failure?.message.contains(missing.deletingLastPathComponent().path) == true)
        #expect(failure?.fix?.contains("exists and is writable") == true)
    }
}
