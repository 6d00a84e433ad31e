import Foundation

/// Something that reads a body arriving in chunks into values: lines, server-sent events,
/// multipart parts. `ReadChunks` applies one to any async sequence of `Data`.
public protocol ChunkReader: Sendable {
    /// What the reader makes of the bytes.
    associatedtype Output: Sendable

    /// The values that `chunk` completes, in order.
    mutating func read(_ chunk: Data) throws -> [Output]

    /// The values left when the body has ended; throws when the body ended where its format
    /// does not allow it to.
    mutating func finish() throws -> [Output]
}

/// An async sequence of `Data` chunks read by a `ChunkReader`: each chunk is read as it
/// arrives, and the reader's values come out in order.
///
/// ```swift
/// let response = try await transport.send(request)
/// for try await event in response.body.serverSentEvents() {
///     print(event.type, event.data)
/// }
/// ```
public struct ReadChunks<Base: AsyncSequence & Sendable, Reader: ChunkReader>: AsyncSequence, Sendable
where Base.Element == Data {
    public typealias Element = Reader.Output

    let base: Base
    let reader: Reader

    /// Reads `base` with `reader`.
    public init(_ base: Base, reader: Reader) {
        self.base = base
        self.reader = reader
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), reader: reader)
    }

    /// Reads the next chunks until the reader gives a value.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var reader: Reader
        var ready: [Reader.Output] = []
        var position = 0
        var ended = false

        public mutating func next() async throws -> Reader.Output? {
            while position == ready.count {
                guard !ended else { return nil }
                ready.removeAll(keepingCapacity: true)
                position = 0
                if let chunk = try await base.next(isolation: #isolation) {
                    ready = try reader.read(chunk)
                } else {
                    ended = true
                    ready = try reader.finish()
                }
            }
            defer { position += 1 }
            return ready[position]
        }
    }
}

extension ServerSentEventParser: ChunkReader {
    public mutating func read(_ chunk: Data) throws -> [ServerSentEvent] {
        try events(in: chunk)
    }

    /// Nothing: an event the stream ends in the middle of is dropped, as the format says.
    public mutating func finish() throws -> [ServerSentEvent] { [] }
}

/// Reads a body as lines of UTF-8 text ended by CRLF, LF or CR; the last line needs no end.
public struct LineReader: ChunkReader {
    private var splitter: LineSplitter

    /// Creates a reader that refuses a line longer than `maxLineBytes`.
    public init(maxLineBytes: Int = ServerSentEventParser.defaultMaxEventBytes) {
        splitter = LineSplitter(maxLineBytes: maxLineBytes)
    }

    public mutating func read(_ chunk: Data) throws -> [String] {
        try splitter.lines(in: chunk).map { String(decoding: $0, as: UTF8.self) }
    }

    public mutating func finish() throws -> [String] {
        guard splitter.hasPartialLine else { return [] }
        return try splitter.lines(in: [0x0A]).map { String(decoding: $0, as: UTF8.self) }
    }
}

extension AsyncSequence where Self: Sendable, Element == Data {
    /// The body read as server-sent events (`text/event-stream`).
    ///
    /// - Parameters:
    ///   - lastEventID: the ID the stream resumes after, when it is a reconnection.
    ///   - maxEventBytes: the largest line or event data accepted.
    public func serverSentEvents(
        lastEventID: String = "", maxEventBytes: Int = ServerSentEventParser.defaultMaxEventBytes
    ) -> ReadChunks<Self, ServerSentEventParser> {
        ReadChunks(self, reader: ServerSentEventParser(lastEventID: lastEventID, maxEventBytes: maxEventBytes))
    }

    /// The body read as lines of UTF-8 text.
    public func textLines(maxLineBytes: Int = ServerSentEventParser.defaultMaxEventBytes)
        -> ReadChunks<Self, LineReader>
    {
        ReadChunks(self, reader: LineReader(maxLineBytes: maxLineBytes))
    }
}
