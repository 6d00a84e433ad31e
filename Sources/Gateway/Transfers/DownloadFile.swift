import Foundation

/// Where a download's body goes while it arrives: step 7's file destination (see `Pipeline`).
///
/// The body is written, chunk by chunk, to a partial file next to the destination,
/// `.NAME.gateway-partial`, and the validator of the response it came from (a strong `ETag`, else
/// `Last-Modified`) to `.NAME.gateway-partial.validator`; memory holds one chunk at a time,
/// whatever the size. Only when the whole body has arrived and the response was accepted
/// (step 9) is the partial file renamed to the destination, in one atomic step.
///
/// A partial file with a validator is resumed: the next attempt (the retry step's, or a later
/// call's) asks for the rest with `Range: bytes=N-` and `If-Range`. A `206` whose
/// `Content-Range` starts at byte N is appended; any other success (the server ignored the range,
/// or the validator changed) starts the file over. A `206` for other bytes fails the call with a
/// `.download` error and discards the partial file, so the next call starts from the beginning.
/// A partial file without a validator cannot be resumed safely and is removed when the attempt fails.
final class DownloadFile: Sendable {
    /// Where the finished file goes.
    let destination: URL
    /// The bytes received so far.
    let partial: URL
    /// The validator of the response `partial` holds.
    let validatorFile: URL
    private let progress: AsyncStream<TransferProgress>.Continuation
    private let state: Locked<State>

    /// While the body arrives, a progress value is reported once this many bytes more have been
    /// written, or `progressInterval` after the last one, rather than per chunk (each value may
    /// wake the task that reads them); the last value is always reported.
    static let progressBytes: Int64 = 1 << 20
    /// See `progressBytes`.
    static let progressInterval = Duration.milliseconds(100)

    private struct State {
        /// The bytes `partial` holds.
        var offset: Int64 = 0
        var validator: DownloadValidator?
        /// The whole file's length, when the server said.
        var expected: Int64?
        /// The bytes last reported as progress, and when.
        var reported = (bytes: Int64(0), at: ContinuousClock.now)

        /// Counts `count` bytes more written: the progress to report, when it is time for one.
        mutating func wrote(_ count: Int, at now: ContinuousClock.Instant) -> TransferProgress? {
            offset += Int64(count)
            guard offset - reported.bytes >= DownloadFile.progressBytes || now - reported.at >= DownloadFile.progressInterval
            else { return nil }
            reported = (offset, now)
            return TransferProgress(completedBytes: offset, expectedBytes: expected)
        }
    }

    /// A download to `destination`.
    ///
    /// - Parameters:
    ///   - resumes: whether a partial file an earlier call left is resumed; when `false` it is removed.
    ///   - progress: where the bytes received so far are reported.
    init(destination: URL, resumes: Bool, progress: AsyncStream<TransferProgress>.Continuation) {
        self.destination = destination
        let folder = destination.deletingLastPathComponent()
        partial = folder.appendingPathComponent(".\(destination.lastPathComponent).gateway-partial")
        validatorFile = folder.appendingPathComponent(".\(destination.lastPathComponent).gateway-partial.validator")
        self.progress = progress
        var state = State()
        if resumes, let text = try? String(contentsOf: validatorFile, encoding: .utf8),
           let validator = DownloadValidator(line: text),
           let size = (try? FileManager.default.attributesOfItem(atPath: partial.path))?[.size] as? NSNumber
        {
            state.offset = size.int64Value
            state.validator = validator
        }
        self.state = Locked(state)
        if state.validator == nil { discardPartial() }
    }

    /// Step 5: `request` asking for the rest of a partial file that has a validator
    /// (`Range: bytes=N-`, `If-Range`); otherwise without those fields.
    func resuming(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        let (offset, validator) = state.withLock { ($0.offset, $0.validator) }
        if offset > 0, let validator {
            request.headers["Range"] = "bytes=\(offset)-"
            request.headers["If-Range"] = validator.value
        } else {
            request.headers.remove("Range")
            request.headers.remove("If-Range")
        }
        return request
    }

    /// Step 7: a successful response's body written to the partial file (appended after a `206`
    /// for the rest, from the start otherwise); any other response collected in memory for
    /// step 8, up to `errorBodyLimit`.
    ///
    /// - Returns: the response without its body (a failure's with it).
    /// - Throws: `GatewayError` of kind `.download` when the file cannot be written or a `206`
    ///   holds other bytes than those asked for; whatever the body throws when it ends early
    ///   (the partial file and its validator are kept then, when there is a validator).
    func receive(_ response: StreamedResponse, for request: HTTPRequest, errorBodyLimit: Int) async throws
        -> HTTPResponse
    {
        guard response.isSuccess else {
            // The server cannot serve the range asked for: the partial file is of no use.
            if response.status == 416 { discardPartial() }
            return try await response.collect(upTo: min(request.maxResponseBytes, errorBodyLimit))
        }
        let start = try startingOffset(of: response, for: request)
        let expected = state.withLock { state in
            state.reported = (state.offset, .now)
            return state.expected
        }
        let written: Int64
        do {
            let handle = try open(keeping: start)
            defer { try? handle.close() }
            // The chunks may be written on the transport's own thread as they arrive (see
            // `ResponseBody.forEachChunk`): the count and the last report live in `state`.
            try await response.body.forEachChunk { [self] chunk in
                do {
                    try handle.write(contentsOf: chunk)
                } catch {
                    throw failure("the download could not be written to \(partial.path)", underlying: error)
                }
                if let report = state.withLock({ $0.wrote(chunk.count, at: .now) }) { progress.yield(report) }
            }
            let (last, unreported) = state.withLock { ($0.offset, $0.reported.bytes != $0.offset) }
            if unreported { progress.yield(TransferProgress(completedBytes: last, expectedBytes: expected)) }
            written = last
        } catch {
            if state.withLock({ $0.validator == nil }) { discardPartial() }
            throw error
        }
        return HTTPResponse(
            status: response.status, headers: response.headers, url: response.url,
            transportMetrics: response.body.metrics ?? TransportMetrics(bytesReceived: written - start))
    }

    /// Step 9: the partial file, complete, renamed to the destination.
    ///
    /// - Returns: the destination.
    /// - Throws: `GatewayError` of kind `.download` when the file is shorter than the server
    ///   declared or cannot be moved.
    func complete() throws -> URL {
        let (offset, expected) = state.withLock { ($0.offset, $0.expected) }
        if let expected, offset != expected {
            discardPartial()
            throw failure("the download ended with \(offset) of the \(expected) bytes the server declared",
                          fix: "download again")
        }
        if offset == 0, !FileManager.default.fileExists(atPath: partial.path) {
            // An empty body wrote nothing: the destination is an empty file.
            _ = FileManager.default.createFile(atPath: partial.path, contents: nil)
        }
        try DownloadFile.rename(partial, to: destination)
        try? FileManager.default.removeItem(at: validatorFile)
        state.withLock { $0 = State() }
        return destination
    }

    /// The offset a success's body starts at: the partial file's length for a `206` that
    /// continues it; 0, with the response's validator kept, for any other success.
    private func startingOffset(of response: StreamedResponse, for request: HTTPRequest) throws -> Int64 {
        let offset = state.withLock { $0.offset }
        guard response.status == 206 else {
            let validator = DownloadValidator(response.headers)
            let expected = response.headers.declaredBodyLength.map(Int64.init)
            state.withLock { $0 = State(offset: 0, validator: validator, expected: expected) }
            keep(validator)
            progress.yield(TransferProgress(completedBytes: 0, expectedBytes: expected))
            return 0
        }
        let asked = request.headers["Range"] != nil ? offset : 0
        guard let text = response.headers["Content-Range"], let range = ContentRange(text), range.first == asked else {
            discardPartial()
            let got = response.headers["Content-Range"].map { "Content-Range \($0)" } ?? "no Content-Range"
            throw failure("the server answered the range request for bytes \(asked)- with \(got); the partial file "
                + "was discarded", fix: "download again: the next call starts from the beginning")
        }
        let expected = range.completeLength ?? response.headers.declaredBodyLength.map { asked + Int64($0) }
        state.withLock { $0.expected = expected }
        return asked
    }

    /// The partial file open for writing at `offset`, cut to that length (created when missing;
    /// made anew when starting from the beginning).
    ///
    /// A file is cut only when it is longer than `offset`, and never to zero: on ext4 a file cut
    /// to zero and written again is flushed whole when closed (its `auto_da_alloc`), which held
    /// every fresh download back by a third.
    private func open(keeping offset: Int64) throws -> FileHandle {
        if offset == 0 { try? FileManager.default.removeItem(at: partial) }
        if !FileManager.default.fileExists(atPath: partial.path) {
            guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
                throw failure("the partial file \(partial.path) could not be created",
                              fix: "check that the folder \(partial.deletingLastPathComponent().path) exists and is "
                                + "writable")
            }
        }
        do {
            let handle = try FileHandle(forWritingTo: partial)
            if try handle.seekToEnd() != UInt64(offset) {
                try handle.truncate(atOffset: UInt64(offset))
                try handle.seekToEnd()
            }
            return handle
        } catch {
            throw failure("the partial file \(partial.path) could not be opened for writing", underlying: error)
        }
    }

    /// Keeps `validator` beside the partial file for a later call (none: nothing is kept).
    private func keep(_ validator: DownloadValidator?) {
        guard let validator else {
            try? FileManager.default.removeItem(at: validatorFile)
            return
        }
        try? Data(validator.line.utf8).write(to: validatorFile, options: .atomic)
    }

    /// Removes the partial file and its validator; the next attempt starts from the beginning.
    private func discardPartial() {
        state.withLock { $0 = State() }
        try? FileManager.default.removeItem(at: partial)
        try? FileManager.default.removeItem(at: validatorFile)
    }

    private func failure(_ message: String, fix: String? = nil, underlying: (any Error)? = nil) -> GatewayError {
        GatewayError(.download, message,
                     fix: fix ?? "check that the folder of \(destination.path) is writable and has room",
                     underlying: underlying)
    }
}
