import Foundation
@testable import Gateway
import GatewayTesting
import Testing

/// `Provider.upload(_:)` over the real `URLSessionTransport`: the body's bytes sent are reported
/// as they go out, up to the body's length, for a multipart body streamed from a file and for
/// one held in memory.
@Suite(.timeLimit(.minutes(2))) struct UploadProgressTests {
    @Test(arguments: [3_000_000, 2_000])
    func theProgressOfAMultipartBodyReachesItsLength(fileSize: Int) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("cover.bin")
        try Downloads.payload(fileSize).write(to: file)
        let server = try LoopbackServer { request in .text("\(request.body.count)") }
        defer { server.shutdown() }
        let provider = try Downloads.provider(server)
        var form = MultipartForm()
        form.append(.text("title", "Cover"))
        form.append(.file("cover", url: file))

        let upload = provider.upload(Endpoint<Data>.post("covers", body: form, encoder: .multipart))
        async let steps = Downloads.steps(of: upload)
        let response = try await upload.response

        let received = try #require(Int64(String(decoding: response.value, as: UTF8.self)))
        #expect(received > Int64(fileSize))
        let last = try #require(await steps.last)
        #expect(last == TransferProgress(completedBytes: received, expectedBytes: received))
        #expect(response.request.bodyProgress != nil)
    }

    @Test func aRequestSentWithoutUploadCarriesNoReporter() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.shutdown() }
        let provider = try Downloads.provider(server)

        let response = try await provider.send(Endpoint<Data>.post("covers", body: ["a": 1]))

        #expect(response.request.bodyProgress == nil)
    }
}
