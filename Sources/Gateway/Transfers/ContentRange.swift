import Foundation

/// A `Content-Range` field of a `206` response, `bytes FIRST-LAST/COMPLETE` (RFC 9110 §14.4):
/// which bytes of the representation the body holds, and its whole length when the server knows it.
struct ContentRange: Sendable, Hashable {
    /// The offset of the body's first byte.
    let first: Int64
    /// The offset of the body's last byte.
    let last: Int64
    /// The representation's whole length; `nil` for `*`.
    let completeLength: Int64?

    /// The range in `text`; `nil` when it is not a satisfied byte range (`bytes */1000` is not).
    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count)
        let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let bounds = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.number(bounds[0]), let last = Self.number(bounds[1]), first <= last
        else { return nil }
        if halves[1] == "*" {
            completeLength = nil
        } else {
            guard let complete = Self.number(halves[1]), last < complete else { return nil }
            completeLength = complete
        }
        self.first = first
        self.last = last
    }

    /// Decimal digits only (at most 18, so the value fits).
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int64(text)
    }

    /// The number of bytes the range covers.
    var length: Int64 { last - first + 1 }
}
