import Foundation

/// Where a stream's body waits between step 7, which receives the response, and step 9, which
/// hands the body to the caller (see `Pipeline` and `Provider.stream(_:)`).
///
/// Step 7 holds the call's deadline to the response head only (the request goes without one,
/// so the transport does not end the body when it passes), takes a success's body without
/// reading it, and collects any other status's body, bounded, for step 8 and the error. An
/// attempt that step 8 sends again replaces the held body, which ends that exchange; a body
/// nobody takes is released with the request, which ends its exchange too.
final class BodyHandoff: Sendable {
    private let held = Locked<ResponseBody?>(nil)

    init() {}

    /// Step 7: the transport's response once its head has arrived, or a `.timeout` when the
    /// call's `deadline` passes first (the exchange is then cancelled).
    func head(of request: HTTPRequest, from transport: any Transport, by deadline: InstantOffset?)
        async throws -> StreamedResponse
    {
        guard let deadline = deadline?.instant else { return try await transport.send(request) }
        let waiting = Stopwatch.start()
        return try await withThrowingTaskGroup(of: StreamedResponse?.self) { group in
            group.addTask { try await transport.send(request) }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw GatewayError.deadlinePassed(request, after: waiting.elapsed)
            }
            return response
        }
    }

    /// Step 7's end: a success without its body, which waits here for step 9; any other
    /// status with its body collected, up to `errorBodyLimit`.
    func receive(_ response: StreamedResponse, errorBodyLimit: Int) async throws -> HTTPResponse {
        guard response.isSuccess else {
            return try await response.collect(upTo: errorBodyLimit)
        }
        let earlier = held.withLock { held in
            defer { held = response.body }
            return held
        }
        _ = earlier  // released here, outside the lock: its exchange ends.
        return HTTPResponse(status: response.status, headers: response.headers, url: response.url)
    }

    /// Step 9: the body of the accepted response, taken once; `nil` when no success's body was
    /// received (an interceptor settled the request with a response of its own).
    func take() -> ResponseBody? {
        held.withLock { held in
            defer { held = nil }
            return held
        }
    }
}
