import Foundation

/// Where step 7 puts a response's body (see `Pipeline`): the one stage whose form depends on the
/// request, fixed when it is built (step 1).
enum BodyDestination: Sendable {
    /// Collected in memory, up to the request's `maxResponseBytes`: every request but a download
    /// or a stream.
    case memory
    /// Written to a download's partial file (see `DownloadFile`).
    case file(DownloadFile)
    /// Handed to the caller as it arrives (see `BodyHandoff`): a stream's.
    case caller(BodyHandoff)

    /// Whether the response cache stays out of the request (a download, a stream): their bodies
    /// never pass through memory whole.
    var bypassesCache: Bool {
        if case .memory = self { return false }
        return true
    }

    /// Step 5's end: for a download with part of its file, `request` changed to ask for the
    /// rest; for a stream, its deadline removed (the body may flow for as long as the caller
    /// reads it: step 7 holds the call's deadline to the response head itself).
    func resume(_ request: inout HTTPRequest) {
        switch self {
        case .memory: return
        case .file(let file): request = file.resuming(request)
        case .caller: request = request.withoutDeadline()
        }
    }

    /// Step 7's start: the transport's response once its head has arrived; for a stream, a
    /// `.timeout` instead when the call's `deadline` passes first.
    func head(of request: HTTPRequest, from transport: any Transport, by deadline: InstantOffset?)
        async throws -> StreamedResponse
    {
        switch self {
        case .memory, .file: try await transport.send(request)
        case .caller(let handoff): try await handoff.head(of: request, from: transport, by: deadline)
        }
    }

    /// Step 7's end: the response, its body collected in memory, written to the download's
    /// file, or, for a stream's success, left to flow to the caller.
    ///
    /// - Parameter errorBodyLimit: the largest body of a failed download's or stream's response
    ///   held in memory.
    func receive(_ response: StreamedResponse, for request: HTTPRequest, errorBodyLimit: Int) async throws
        -> HTTPResponse
    {
        switch self {
        case .memory:
            return try await response.collect(upTo: request.maxResponseBytes)
        case .file(let file):
            return try await file.receive(response, for: request, errorBodyLimit: errorBodyLimit)
        case .caller(let handoff):
            return try await handoff.receive(response, errorBodyLimit: errorBodyLimit)
        }
    }
}

extension HTTPRequest {
    /// The request with no deadline of its own.
    fileprivate func withoutDeadline() -> HTTPRequest {
        var request = self
        request.deadline = nil
        return request
    }
}
