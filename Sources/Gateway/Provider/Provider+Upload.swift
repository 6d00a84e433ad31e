import Foundation

extension Provider {
    /// Sends a request whose body's progress you want to watch: a multipart form, a file, any
    /// body. It goes through the same pipeline as `send` (the request is the same); the task's
    /// `progress` reports the body's bytes sent so far and its length, as the transport reports
    /// them (`URLSessionTransport` does; a transport that cannot tell reports nothing). A retry
    /// sends the body again, from 0.
    ///
    /// ```swift
    /// func sendCover(_ provider: Provider, image: URL) async throws -> Data {
    ///     var form = MultipartForm()
    ///     form.append(.file("cover", url: image))
    ///     let upload = provider.upload(Endpoint<Data>.post("covers", body: form, encoder: .multipart))
    ///     for await step in upload.progress {
    ///         print(step.completedBytes, step.expectedBytes ?? 0)
    ///     }
    ///     return try await upload.value
    /// }
    /// ```
    ///
    /// - Parameter request: an endpoint, an operation, or your own requestable.
    /// - Returns: the running request: its `progress`, and its `response` or `value` once done.
    public func upload<Request: Requestable>(_ request: Request) -> UploadTask<Request.Value> {
        let (progress, continuation) = AsyncStream.makeStream(of: TransferProgress.self,
                                                              bufferingPolicy: .bufferingNewest(1))
        let reporter = BodyProgress { sent, expected in
            continuation.yield(TransferProgress(completedBytes: sent, expectedBytes: expected))
        }
        let upload = Upload(wrapped: request, progress: reporter)
        return UploadTask<Request.Value>(upload, on: pipeline, progress: progress) {
            continuation.finish()
        }
    }
}
