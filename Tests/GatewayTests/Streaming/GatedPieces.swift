import Foundation
@testable import Gateway
import GatewayLoopback

/// A streamed body whose first piece goes at once and each later one when the test calls
/// `release()`; then, when asked, the same piece endlessly, until the client closes the connection.
final class GatedPieces: Sendable {
    enum Ending: Equatable { case complete, clientClosed }

    private struct State {
        var sent = 0
        var released = 0
        var waiting: CheckedContinuation<Void, Never>?
        var ending: Ending?
    }

    private let pieces: [String]
    private let endless: String?
    private let state = Locked(State())
    /// Opens when the body has ended, either way.
    let ended = LoopbackGate()

    init(_ pieces: [String], thenEndlessly endless: String? = nil) {
        self.pieces = pieces
        self.endless = endless
    }

    /// How many pieces the server has produced.
    var sent: Int { state.withLock { $0.sent } }
    /// How the body ended, once it has.
    var ending: Ending? { state.withLock { $0.ending } }

    /// Lets the next piece go (and, after the last listed piece, the endless ones).
    func release() {
        let waiting = state.withLock { state in
            state.released += 1
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume()
    }

    func response(contentType: String) -> LoopbackResponse {
        var response = LoopbackResponse(headers: ["Content-Type": contentType])
        response.stream = LoopbackBodyStream(next: { await self.next() }, ended: { clientClosed in
            self.state.withLock { $0.ending = clientClosed ? .clientClosed : .complete }
            self.ended.open()
        })
        return response
    }

    private func next() async -> Data? {
        let index = state.withLock { $0.sent }
        if index >= pieces.count, endless == nil { return nil }
        if index > 0, index <= pieces.count { await waitForRelease(index) }
        state.withLock { $0.sent += 1 }
        return Data((index < pieces.count ? pieces[index] : endless ?? "").utf8)
    }

    /// Waits until `release()` has been called `count` times.
    private func waitForRelease(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.released >= count { return true }
                state.waiting = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
