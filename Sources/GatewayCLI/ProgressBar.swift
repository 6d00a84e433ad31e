import Foundation
import Gateway

/// The progress bar `gateway request --output` draws on standard error when it is a terminal:
/// one line, redrawn in place (`\r`), at most every `interval`, and a last time at the end.
///
/// `[#############-----------------]  45%  12.3 MB / 27.0 MB`, the filled part in green unless
/// colour is off (`NO_COLOR`); without a known total, only the bytes so far.
struct ProgressBar {
    /// Whether the filled part is drawn in colour.
    var color: Bool
    /// The bar's width in characters, between the brackets.
    var width = 30
    /// The least time between two redraws.
    var interval = Duration.milliseconds(100)
    private var lastDrawn: ContinuousClock.Instant?
    private var last: TransferProgress?

    init(color: Bool) {
        self.color = color
    }

    /// The text that redraws the bar for `progress`, or `nil` when the last redraw was less than
    /// `interval` ago.
    mutating func redraw(_ progress: TransferProgress, now: ContinuousClock.Instant = .now) -> String? {
        last = progress
        if let lastDrawn, now - lastDrawn < interval { return nil }
        lastDrawn = now
        return "\r" + line(progress)
    }

    /// The text that draws the last progress seen and ends the line; empty when none was seen.
    func finish() -> String {
        guard let last else { return "" }
        return "\r" + line(last) + "\n"
    }

    /// The bar for `progress`, without the carriage return.
    func line(_ progress: TransferProgress) -> String {
        let received = Self.megabytes(progress.completedBytes)
        guard let expected = progress.expectedBytes, let fraction = progress.fractionCompleted else {
            return received
        }
        let filled = min(width, Int((fraction * Double(width)).rounded(.down)))
        let bar = String(repeating: "#", count: filled)
        let rest = String(repeating: "-", count: width - filled)
        let percent = String(Int((fraction * 100).rounded(.down)))
        let padded = String(repeating: " ", count: max(0, 3 - percent.count)) + percent
        let drawn = color ? "\u{1B}[32m" + bar + "\u{1B}[0m" + rest : bar + rest
        return "[\(drawn)] \(padded)%  \(received) / \(Self.megabytes(expected))"
    }

    /// `12.3 MB` (10^6 bytes), or `512 B` below a kilobyte.
    static func megabytes(_ bytes: Int64) -> String {
        if bytes < 1_000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return String(format: "%.1f kB", Double(bytes) / 1e3) }
        return String(format: "%.1f MB", Double(bytes) / 1e6)
    }
}
