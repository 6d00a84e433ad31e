import Foundation
@testable import Gateway
import GatewayTesting
import Testing

extension TokenTests {
    /// A replayed request sends its body again byte for byte.
    @Suite struct ReplayBodyTests {
        @Test(arguments: [false, true])
        func aReplayedMultipartUploadSendsTheSameBytes(streamed: Bool) async throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let stub = StubTransport()
                .on(token: "old", .post, "upload", reply: .status(401))
                .on(token: "new", .post, "upload", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2"))
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential))
            let form = MultipartForm([
                .text("title", "cover"),
                .data("file", Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) }), filename: "cover.bin"),
            ])
            // A random boundary: encoding the form again would give other bytes.
            let encoder = MultipartParameterEncoder.multipart(streamingThreshold: streamed ? 16 : 1 << 20,
                                                              temporaryDirectory: folder.url)
            let response = try await provider.send(Endpoint<Empty>.post("upload", body: form, encoder: encoder))

            #expect(response.metrics.authReplays == 1)
            let uploads = stub.requests.filter { $0.url.path.hasSuffix("upload") }
            #expect(uploads.map(\.bearer) == ["old", "new"])
            #expect(uploads.count == 2)
            #expect(uploads.first?.body.count ?? 0 > 4096)
            #expect(uploads.first?.body == uploads.last?.body)
            #expect(uploads.first?.headers["Content-Type"] == uploads.last?.headers["Content-Type"])
            #expect(folder.contents.isEmpty)
        }

        @Test func aReplayThatIsNotAllowedLeavesNoTemporaryFile() async throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let stub = StubTransport()
                .on(.post, "upload", reply: .status(401))
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2"), tokens("newer"), tokens("newest"))
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential))
            let form = MultipartForm([.data("file", Data(repeating: 1, count: 256), filename: "a.bin")])
            let encoder = MultipartParameterEncoder.multipart(streamingThreshold: 16, temporaryDirectory: folder.url)
            let error = await #expect(throws: GatewayError.self) {
                try await provider.send(Endpoint<Empty>.post("upload", body: form, encoder: encoder))
            }
            #expect(error?.kind == .authentication)
            #expect(stub.requests.filter { $0.url.path.hasSuffix("upload") }.count == 3)
            #expect(Set(stub.requests.filter { $0.url.path.hasSuffix("upload") }.map(\.body)).count == 1)
            #expect(folder.contents.isEmpty)
        }
    }
}
