import Foundation

/// Splits a byte stream that arrives in chunks into lines ended by CRLF, LF or CR, as the
/// event-stream format and multipart headers read them. A CR at the end of one chunk and an LF
/// at the start of the next end one line, not two.
///
/// Each byte is looked at once, however the stream is cut into chunks, and a line longer than
/// `maxLineBytes` is refused instead of growing the buffer without bound.
struct LineSplitter: Sendable {
    /// The longest line accepted, in bytes, its end left out.
    let maxLineBytes: Int
    /// The bytes of the line not yet ended.
    private var pending: [UInt8] = []
    /// Whether the last byte seen was a CR, so that an LF right after it ends nothing.
    private var afterCR = false

    init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// The lines that `chunk` ends, in order, each without its line end.
    ///
    /// - Throws: `GatewayError` (`.responseTooLarge`) for a line past `maxLineBytes`.
    mutating func lines(in chunk: some Sequence<UInt8>) throws -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for byte in chunk {
            switch byte {
            case 0x0A where afterCR:
                afterCR = false
            case 0x0A, 0x0D:
                afterCR = byte == 0x0D
                lines.append(pending)
                pending.removeAll(keepingCapacity: true)
            default:
                afterCR = false
                guard pending.count < maxLineBytes else {
                    throw GatewayError(
                        .responseTooLarge, "a line of the stream is longer than \(maxLineBytes) bytes",
                        fix: "the server must end its lines; raise the limit if its events really are this large")
                }
                pending.append(byte)
            }
        }
        return lines
    }

    /// Whether bytes of an unfinished line are waiting for their end.
    var hasPartialLine: Bool { !pending.isEmpty }
}
