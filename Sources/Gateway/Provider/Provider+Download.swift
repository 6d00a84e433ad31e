import Foundation

extension Provider {
    /// Downloads an endpoint's body to a file, through the same pipeline as `send` (queue, auth
    /// and its refresh, retries, observers, metrics; not the response cache).
    ///
    /// The body is written to a partial file next to the destination as it arrives, so memory
    /// stays bounded whatever its size, and the file is moved to `destination` (replacing a file
    /// there) only once it is complete. When an attempt fails part-way, the retry asks for the
    /// rest (`Range` with `If-Range`, the response's strong `ETag` or `Last-Modified`) and
    /// appends it; a server that ignores the range, or whose file changed, sends the whole file,
    /// which starts over. The endpoint's `maxResponseBytes` bounds the file (no bound when `nil`);
    /// the call's deadline is the endpoint's or the provider's, so raise it for large files.
    ///
    /// ```swift
    /// func saveCover(_ provider: Provider, to file: URL) async throws -> URL {
    ///     try await provider.download(Endpoint<Data>.get("covers/7.jpg"), to: file).value
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - endpoint: what to download; its method, path, headers and parameters are sent as for
    ///     `send`, and its status validation applies; only a 2xx writes the file, any other
    ///     status fails with `.status` (its body in the error's response). A `Range` header of
    ///     its own is replaced.
    ///   - destination: the file to write; its folder must exist and be writable.
    ///   - resumingPartialFile: whether a partial file an earlier download to `destination` left
    ///     (a cancelled or failed one) is resumed; when `false` it is removed and the download
    ///     starts from the beginning.
    /// - Returns: the running download: its `progress`, and its `value` (the destination) once done.
    public func download<Body>(_ endpoint: Endpoint<Body>, to destination: URL, resumingPartialFile: Bool = true)
        -> DownloadTask
    {
        let (progress, continuation) = AsyncStream.makeStream(of: TransferProgress.self,
                                                              bufferingPolicy: .bufferingNewest(1))
        let file = DownloadFile(destination: destination, resumes: resumingPartialFile, progress: continuation)
        return DownloadTask(Download(endpoint: endpoint, file: file), on: pipeline, progress: progress) {
            continuation.finish()
        }
    }
}
