#if canImport(Testing)
import Foundation
import Gateway
import Testing

extension TransportConformance {
    func runTransfer(_ check: Check) async throws {
        switch check {
        case .transferDroppedDownloadResumesWithARangeRequestAndEndsWithTheExactBytes: try await droppedDownload()
        case .transferUploadProgressReachesTheBodysLength: try await uploadProgress()
        default: Issue.record("\(check) is not a transfer check")
        }
    }

    /// Runs `body` with a provider on `/api/` of `server` over a fresh transport, without
    /// retries (what counts as a retryable failure depends on the transport), and a fresh folder
    /// that is removed afterwards.
    private func withTransferProvider<T>(_ server: LoopbackServer, _ body: (Provider, URL) async throws -> T)
        async throws -> T
    {
        let baseURL = try server.url("/api/")
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("gateway-transfer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await withTransport { transport in
            let provider = Provider(baseURL: baseURL, transport: transport) { config in
                config.timeout = .seconds(30)
                config.deadline = .seconds(60)
                config.retryPolicy = .none
            }
            return try await body(provider, folder)
        }
    }

    private func droppedDownload() async throws {
        let file = Self.bytes(3_000_000)
        let served = Locked(0)
        let server = try LoopbackServer { request in
            let number = served.withLock { count -> Int in
                count += 1
                return count
            }
            let response = LoopbackResponse.file(file, for: request, etag: "\"v1\"")
            return number == 1 ? response.with(fault: .closeMidBody(afterBytes: 1_500_000)) : response
        }
        defer { server.shutdown() }
        try await withTransferProvider(server) { provider, folder in
            let destination = folder.appendingPathComponent("file.bin")
            // The connection drops halfway: the call fails, keeping what arrived before.
            await #expect(throws: GatewayError.self) {
                try await provider.download(Endpoint<Data>.get("file.bin"), to: destination).value
            }
            let download = provider.download(Endpoint<Data>.get("file.bin"), to: destination)
            var last: TransferProgress?
            for await step in download.progress { last = step }
            let response = try await download.response
            #expect(response.status == 206)
            #expect(server.requests.count == 2)
            let range = server.requests.last?.headers["Range"]
            #expect(range?.hasPrefix("bytes=") == true && range != "bytes=0-", "\(String(describing: range))")
            #expect(server.requests.last?.headers["If-Range"] == "\"v1\"")
            #expect(try Data(contentsOf: destination) == file)
            #expect(last == TransferProgress(completedBytes: 3_000_000, expectedBytes: 3_000_000))
        }
    }

    private func uploadProgress() async throws {
        let server = try LoopbackServer { request in .text("\(request.body.count)") }
        defer { server.shutdown() }
        try await withTransferProvider(server) { provider, folder in
            let image = folder.appendingPathComponent("cover.bin")
            try Self.bytes(2_000_000).write(to: image)
            var form = MultipartForm()
            form.append(.file("cover", url: image))
            let upload = provider.upload(Endpoint<Data>.post("covers", body: form, encoder: .multipart))
            var last: TransferProgress?
            for await step in upload.progress { last = step }
            let received = try #require(Int64(Self.text(try await upload.value)))
            #expect(received > 2_000_000)
            #expect(last == TransferProgress(completedBytes: received, expectedBytes: received))
        }
    }
}
#endif
