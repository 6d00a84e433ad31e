import Foundation

/// A body the loopback server sends piece by piece as a test produces it, with chunked transfer
/// coding: how a test plays a server that streams (events, a subscription) and holds each piece
/// back until a gate opens.
///
/// ```swift
/// let go = LoopbackGate(), sent = LoopbackGate()
/// let server = try LoopbackServer { _ in
///     var response = LoopbackResponse(headers: ["Content-Type": "text/event-stream"])
///     response.stream = LoopbackBodyStream(next: {
///         guard !sent.isOpen else { return nil }   // one piece, then the end
///         await go.wait()                          // held back until the test calls go.open()
///         sent.open()
///         return Data("data: tick\n\n".utf8)
///     })
///     return response
/// }
/// ```
public struct LoopbackBodyStream: Sendable {
    /// The next piece of the body, or `nil` to end it; called on a task while the connection's
    /// thread waits, once per piece.
    let next: @Sendable () async -> Data?
    /// Called once when the body is over: `true` when the client closed the connection before
    /// its end (a piece could not be sent), `false` when every piece was sent.
    let ended: @Sendable (_ clientClosed: Bool) -> Void

    /// Creates a streamed body.
    ///
    /// - Parameters:
    ///   - next: the next piece (an empty piece is skipped), or `nil` to end the body.
    ///   - ended: told how the body ended: `true` when the client closed the connection first.
    public init(next: @escaping @Sendable () async -> Data?,
                ended: @escaping @Sendable (_ clientClosed: Bool) -> Void = { _ in }) {
        self.next = next
        self.ended = ended
    }
}
