import AsyncHTTPClient
import Foundation
import NIOCore

/// A file read in pieces as a request body: it is streamed, never held whole.
///
/// Each iteration opens the file anew, so a redirect that re-sends the body reads it again from
/// the start. Reading a piece counts as network activity for the idle timeout.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// The size of each piece read.
    static let chunkSize = 64 * 1024

    let url: URL
    let exchange: Exchange

    /// The file as the client's request body of `length` bytes, each piece written once the
    /// previous one has been.
    func body(length: Int64, eventLoop: any EventLoop) -> HTTPClient.Body {
        .stream(contentLength: length) { writer in
            let written = eventLoop.makePromise(of: Void.self)
            written.completeWithTask {
                for try await piece in self { try await writer.write(.byteBuffer(piece)).get() }
            }
            return written.futureResult
        }
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(url: url, exchange: exchange)
    }

    struct Iterator: AsyncIteratorProtocol {
        let url: URL
        let exchange: Exchange
        private var handle: FileHandle?
        private var finished = false

        init(url: URL, exchange: Exchange) {
            self.url = url
            self.exchange = exchange
        }

        mutating func next() async throws -> ByteBuffer? {
            guard !finished else { return nil }
            try Task.checkCancellation()
            if handle == nil { handle = try FileHandle(forReadingFrom: url) }
            guard let handle, let data = try handle.read(upToCount: FileChunks.chunkSize), !data.isEmpty else {
                finished = true
                try handle?.close()
                return nil
            }
            exchange.sent(data.count)
            return ByteBuffer(bytes: data)
        }
    }
}
