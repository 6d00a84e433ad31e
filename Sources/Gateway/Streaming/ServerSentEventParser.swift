import Foundation

/// Reads a `text/event-stream` body chunk by chunk into `ServerSentEvent`s, following the HTML
/// standard's event-stream interpretation: lines end with CRLF, LF or CR; a line starting with
/// a colon is a comment; `event`, `data`, `id` and `retry` are the fields (others are ignored);
/// a blank line dispatches the event; an event with no data is not dispatched; a leading
/// byte-order mark is skipped; an event the stream ends in the middle of is dropped.
///
/// A line or an event's data past `maxEventBytes` is an error rather than memory without
/// bound: a hostile server cannot make the reader buffer forever.
public struct ServerSentEventParser: Sendable {
    /// The default bound of one line and of one event's data: 1 MiB.
    public static let defaultMaxEventBytes = 1 << 20

    /// The largest line or event data accepted, in bytes.
    public let maxEventBytes: Int
    /// The last event ID, which carries over from event to event (`id` fields).
    public private(set) var lastEventID: String
    /// The last valid `retry` field's reconnection time, if any.
    public private(set) var reconnectionTime: Duration?

    private var lines: LineSplitter
    private var startOfStream = true
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// How many bytes of a leading byte-order mark have been read.
    private var byteOrderMarkRead = 0
    private var eventType = ""
    private var data = ""
    private var hasData = false
    private var retry: Duration?

    /// Creates a parser.
    ///
    /// - Parameters:
    ///   - lastEventID: the ID the stream resumes after (`Last-Event-ID` of a reconnection).
    ///   - maxEventBytes: the largest line or event data accepted.
    public init(lastEventID: String = "", maxEventBytes: Int = ServerSentEventParser.defaultMaxEventBytes) {
        self.maxEventBytes = maxEventBytes
        self.lastEventID = lastEventID
        lines = LineSplitter(maxLineBytes: maxEventBytes)
    }

    /// The events that `chunk` completes, in order.
    ///
    /// - Throws: `GatewayError` (`.responseTooLarge`) for a line or an event's data past
    ///   `maxEventBytes`.
    public mutating func events(in chunk: Data) throws -> [ServerSentEvent] {
        var bytes = chunk[...]
        var held: [UInt8] = []
        // A byte-order mark, possibly cut across chunks, is skipped once at the start.
        while startOfStream, let byte = bytes.first {
            if byte == Self.byteOrderMark[byteOrderMarkRead] {
                byteOrderMarkRead += 1
                bytes = bytes.dropFirst()
                startOfStream = byteOrderMarkRead < Self.byteOrderMark.count
            } else {
                held = Array(Self.byteOrderMark.prefix(byteOrderMarkRead))
                startOfStream = false
            }
        }
        var events: [ServerSentEvent] = []
        let completed = held.isEmpty ? try lines.lines(in: bytes) : try lines.lines(in: held + bytes)
        for line in completed {
            if line.isEmpty {
                if let event = dispatch() { events.append(event) }
            } else {
                try process(line)
            }
        }
        return events
    }

    /// One non-empty line: a comment or a field.
    private mutating func process(_ line: [UInt8]) throws {
        guard line.first != UInt8(ascii: ":") else { return }
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            name = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            name = line[...]
            value = []
        }
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            guard data.utf8.count + value.count < maxEventBytes else {
                throw GatewayError(
                    .responseTooLarge, "an event's data is longer than \(maxEventBytes) bytes",
                    fix: "the server must end its events with a blank line; raise the limit if they really are this large")
            }
            if hasData { data.append("\n") }
            data.append(String(decoding: value, as: UTF8.self))
            hasData = true
        case "id" where !value.contains(0):
            lastEventID = String(decoding: value, as: UTF8.self)
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }), let milliseconds = Int(
                String(decoding: value, as: UTF8.self)) {
                retry = .milliseconds(milliseconds)
                reconnectionTime = retry
            }
        default:
            break
        }
    }

    /// A blank line: the event gathered so far, when it has data; the buffers start again.
    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            eventType = ""
            data = ""
            hasData = false
            retry = nil
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: data,
                               lastEventID: lastEventID, retry: retry)
    }
}
