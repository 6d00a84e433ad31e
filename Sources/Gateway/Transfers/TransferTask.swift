import Foundation

/// A download (`Provider.download(_:to:resumingPartialFile:)`): its progress while it runs, and
/// the destination once the file is in place.
public typealias DownloadTask = TransferTask<URL>

/// An upload (`Provider.upload(_:)`): the body's bytes sent while it runs, and the decoded
/// response once it has ended.
public typealias UploadTask<Value: Sendable> = TransferTask<Value>

/// A transfer under way: its progress while it runs and, once it has ended, its response.
///
/// ```swift
/// func fetchMix(_ provider: Provider, to file: URL) async throws -> URL {
///     let download = provider.download(Endpoint<Data>.get("mixes/42.flac"), to: file)
///     for await step in download.progress {
///         print(step.fractionCompleted ?? 0)
///     }
///     return try await download.value
/// }
/// ```
///
/// Awaiting `response` or `value` from a task that is then cancelled cancels the transfer too;
/// `cancel()` cancels it for every awaiter. A cancelled or failed download leaves nothing at its
/// destination; its partial file (`.NAME.gateway-partial`, next to the destination) is kept when
/// the server gave a validator, and a later download to the same destination resumes it.
public struct TransferTask<Value: Sendable>: Sendable {
    /// The bytes transferred so far, and the total when it is known; ends when the transfer
    /// ends. It keeps only the newest value for a slow reader, so the last one read is the last
    /// one reported: on success, the whole file or body. A download reports a value per MiB
    /// written or per tenth of a second, whichever comes first, not one per chunk.
    public let progress: AsyncStream<TransferProgress>
    private let task: Task<Response<Value>, any Error>

    init(progress: AsyncStream<TransferProgress>, task: Task<Response<Value>, any Error>) {
        self.progress = progress
        self.task = task
    }

    /// Starts `requestable` through `pipeline`, ending `progress` (by `finish`) when it ends.
    init<R: Requestable>(_ requestable: R, on pipeline: Pipeline, progress: AsyncStream<TransferProgress>,
                         finish: @escaping @Sendable () -> Void) where R.Value == Value {
        let request = pipeline.start(requestable)
        let name = requestable.name
        self.progress = progress
        task = Task<Response<Value>, any Error> {
            defer { finish() }
            let delivery = try await withTaskCancellationHandler {
                try await request.value
            } onCancel: {
                request.cancel()
            }
            return try delivery.response(as: Value.self, name: name)
        }
    }

    /// The response, once the transfer has ended (for a download, once the file is in place;
    /// its value is the destination).
    ///
    /// - Throws: `GatewayError` (for a download, `.download` when the file could not be written
    ///   or moved, or the server sent other bytes than those asked for; `.status`, `.transport`,
    ///   … as for any request), or `CancellationError`.
    public var response: Response<Value> {
        get async throws {
            let task = self.task
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }

    /// The value, once the transfer has ended: for a download, the destination.
    ///
    /// - Throws: as `response` does.
    public var value: Value {
        get async throws { try await response.value }
    }

    /// Cancels the transfer: it ends with `CancellationError`, and a download leaves nothing at
    /// its destination.
    public func cancel() { task.cancel() }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { task.isCancelled }
}
