/// Finds the `://` that ends a URL's scheme, and the authority after it, by bytes.
///
/// A plain loop over the text's UTF-8 buffer on purpose: it runs for every request (an
/// endpoint's name, a cache key's URL, the auth stage's origin check), and the standard
/// library's generic `firstRange(of:)` looks up type metadata on each call, which cost several
/// microseconds per request.
enum SchemeSeparator {
    /// The UTF-8 offset just past the first `://` in `text`, or `nil` when there is none.
    static func end(in text: String) -> Int? {
        var text = text
        return text.withUTF8 { end(in: $0) }
    }

    /// The UTF-8 offsets of the authority (`host:port`, with any user info) in `text`: from just
    /// past the `://` to the first `/`, `?` or `#` after it, or the end; possibly empty. `nil`
    /// when there is no `://`.
    static func authority(in text: String) -> Range<Int>? {
        var text = text
        return text.withUTF8 { authority(in: $0) }
    }

    /// `end(in:)` over UTF-8 bytes.
    static func end(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var matched = 0
        for (index, byte) in bytes.enumerated() {
            switch (matched, byte) {
            case (_, UInt8(ascii: ":")): matched = 1
            case (1, UInt8(ascii: "/")): matched = 2
            case (2, UInt8(ascii: "/")): return index + 1
            default: matched = 0
            }
        }
        return nil
    }

    /// `authority(in:)` over UTF-8 bytes.
    static func authority(in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let start = end(in: bytes) else { return nil }
        var end = start
        while end < bytes.count, !isAuthorityEnd(bytes[end]) { end += 1 }
        return start..<end
    }

    /// Whether `first` and `second` have the same non-empty authority with the same text before
    /// it (`scheme://host:port`, byte for byte).
    static func sameAuthority(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let authority = authority(in: first), !authority.isEmpty, second.count >= authority.upperBound,
              second.count == authority.upperBound || isAuthorityEnd(second[authority.upperBound])
        else { return false }
        for index in 0..<authority.upperBound where first[index] != second[index] { return false }
        return true
    }

    private static func isAuthorityEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }
}
