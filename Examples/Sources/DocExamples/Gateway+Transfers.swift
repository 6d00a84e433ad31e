// The examples of Sources/Gateway/Transfers, Provider+Download, Provider+Upload and BodyProgress.
import Foundation
import Gateway

// TransferTask
func fetchMix(_ provider: Provider, to file: URL) async throws -> URL {
    let download = provider.download(Endpoint<Data>.get("mixes/42.flac"), to: file)
    for await step in download.progress {
        print(step.fractionCompleted ?? 0)
    }
    return try await download.value
}

// Provider.download(_:to:resumingPartialFile:)
func saveCover(_ provider: Provider, to file: URL) async throws -> URL {
    try await provider.download(Endpoint<Data>.get("covers/7.jpg"), to: file).value
}

// Provider.upload(_:)
func sendCover(_ provider: Provider, image: URL) async throws -> Data {
    var form = MultipartForm()
    form.append(.file("cover", url: image))
    let upload = provider.upload(Endpoint<Data>.post("covers", body: form, encoder: .multipart))
    for await step in upload.progress {
        print(step.completedBytes, step.expectedBytes ?? 0)
    }
    return try await upload.value
}

// BodyProgress
struct CountingTransport: Transport {
    func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        let length = request.body?.length ?? 0
        request.bodyProgress?.sent(length, of: length)
        return StreamedResponse(HTTPResponse(status: 204, url: request.url))
    }
}
