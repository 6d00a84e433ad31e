import Foundation

/// Where step 7 puts a response's body (see `Pipeline`): the one stage whose form depends on the
/// request, fixed when it is built (step 1).
enum BodyDestination: Sendable {
    /// Collected in memory, up to the request's `maxResponseBytes`: every request but a download.
    case memory
    /// Written to a download's partial file (see `DownloadFile`).
    case file(DownloadFile)

    /// Whether the body goes to a file (a download, which the response cache does not see).
    var isFile: Bool {
        if case .file = self { return true }
        return false
    }

    /// Step 5's end: for a download with part of its file, `request` asking for the rest.
    func resuming(_ request: HTTPRequest) -> HTTPRequest {
        switch self {
        case .memory: request
        case .file(let file): file.resuming(request)
        }
    }

    /// Step 7's end: the response, its body collected in memory or written to the download's file.
    ///
    /// - Parameter errorBodyLimit: the largest body of a failed download response held in memory.
    func receive(_ response: StreamedResponse, for request: HTTPRequest, errorBodyLimit: Int) async throws
        -> HTTPResponse
    {
        switch self {
        case .memory:
            return try await response.collect(upTo: request.maxResponseBytes)
        case .file(let file):
            return try await file.receive(response, for: request, errorBodyLimit: errorBodyLimit)
        }
    }
}
