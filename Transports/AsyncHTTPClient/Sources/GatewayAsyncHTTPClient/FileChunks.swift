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
    let progress: AsyncHTTPClientTransport.Progress

    func makeAsyncIterator() -> Iterator {
        Iterator(url: url, progress: progress)
    }

    struct Iterator: AsyncIteratorProtocol {
        let url: URL
        let progress: AsyncHTTPClientTransport.Progress
        private var handle: FileHandle?
        private var finished = false

        init(url: URL, progress: AsyncHTTPClientTransport.Progress) {
            self.url = url
            self.progress = progress
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
            progress.sent(data.count)
            return ByteBuffer(bytes: data)
        }
    }
}
