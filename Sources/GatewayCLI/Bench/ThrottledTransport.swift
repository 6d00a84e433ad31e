import Foundation
import Gateway

/// A transport that hands each response body on no faster than a given pace, as a slow disk
/// would take it: the download benchmark's slow writer. It holds nothing itself; it asks the
/// inner body for its next chunk only when the pace allows, so the inner transport sees a
/// reader that falls behind.
struct ThrottledTransport: Transport {
    let inner: any Transport
    let bytesPerSecond: Double

    init(_ inner: any Transport, bytesPerSecond: Double) {
        self.inner = inner
        self.bytesPerSecond = bytesPerSecond
    }

    func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        var response = try await inner.send(request)
        let body = response.body
        response.body = ResponseBody(Paced(body: body, bytesPerSecond: bytesPerSecond)) { received in
            body.metrics ?? TransportMetrics(bytesReceived: received)
        }
        return response
    }

    /// `body`'s chunks, the next one asked for once the bytes handed on so far are due at the pace.
    struct Paced: AsyncSequence, Sendable {
        typealias Element = Data
        let body: ResponseBody
        let bytesPerSecond: Double

        func makeAsyncIterator() -> Iterator { Iterator(base: body.makeAsyncIterator(), bytesPerSecond: bytesPerSecond) }

        struct Iterator: AsyncIteratorProtocol {
            var base: ResponseBody.AsyncIterator
            let bytesPerSecond: Double
            var started: ContinuousClock.Instant?
            var handed = 0

            mutating func next() async throws -> Data? {
                let start = started ?? ContinuousClock.now
                started = start
                try await Task.sleep(until: start + .seconds(Double(handed) / bytesPerSecond), clock: .continuous)
                guard let chunk = try await base.next() else { return nil }
                handed += chunk.count
                return chunk
            }
        }
    }
}
