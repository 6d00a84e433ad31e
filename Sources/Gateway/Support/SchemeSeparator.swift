/// Finds the `://` that ends a URL's scheme, and the authority after it, by bytes.
///
/// A plain loop on purpose: it runs for every request (an endpoint's name, a cache key's URL),
/// and the standard library's generic `firstRange(of:)` looks up type metadata on each call,
/// which cost several microseconds per request.
enum SchemeSeparator {
    /// The UTF-8 offset just past the first `://` in `text`, or `nil` when there is none.
    static func end(in text: String) -> Int? {
        var matched = 0
        var offset = 0
        for byte in text.utf8 {
            offset += 1
            switch (matched, byte) {
            case (_, UInt8(ascii: ":")): matched = 1
            case (1, UInt8(ascii: "/")): matched = 2
            case (2, UInt8(ascii: "/")): return offset
            default: matched = 0
            }
        }
        return nil
    }

    /// The UTF-8 offsets of the authority (`host:port`, with any user info) in `text`: from just
    /// past the `://` to the first `/`, `?` or `#` after it, or the end; possibly empty. `nil`
    /// when there is no `://`.
    static func authority(in text: String) -> Range<Int>? {
        guard let start = end(in: text) else { return nil }
        var end = start
        for byte in text.utf8.dropFirst(start) {
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            end += 1
        }
        return start..<end
    }
}
