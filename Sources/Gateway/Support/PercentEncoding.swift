/// RFC 3986 percent-encoding, byte by byte over UTF-8, with upper-case hex digits.
///
/// Invariant: every function here returns ASCII text in which each byte outside its kept set
/// appears as `%XX`, so the result is always valid in the URL component it is meant for.
enum PercentEncoding {
    private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Whether `byte` is an RFC 3986 unreserved character: `A-Z a-z 0-9 - . _ ~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// Whether `byte` is an RFC 3986 sub-delimiter, `:` or `@`: the rest of `pchar`.
    private static func isPathExtra(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"):
            true
        default: false
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "F"),
            UInt8(ascii: "a")...UInt8(ascii: "f"):
            true
        default: false
        }
    }

    private static func append(escaped byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hex[Int(byte >> 4)])
        output.append(hex[Int(byte & 0x0F)])
    }

    /// Escapes a query or form name or value: unreserved characters are kept, everything else is
    /// percent-encoded. A space becomes `%20`, or `+` when `spaceAsPlus` (forms); a literal `+` is
    /// always `%2B`.
    static func escape(_ text: String, spaceAsPlus: Bool = false) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                output.append(byte)
            } else if spaceAsPlus, byte == UInt8(ascii: " ") {
                output.append(UInt8(ascii: "+"))
            } else {
                append(escaped: byte, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Escapes one path segment: `pchar` characters are kept, a valid `%XX` triplet is kept as
    /// already encoded, and everything else (a lone `%` included) is percent-encoded.
    static func escapePathSegment(_ segment: Substring) -> String {
        let bytes = Array(segment.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if isUnreserved(byte) || isPathExtra(byte) {
                output.append(byte)
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHexDigit(bytes[index + 1]),
                isHexDigit(bytes[index + 2])
            {
                output.append(contentsOf: bytes[index...index + 2])
                index += 3
                continue
            } else {
                append(escaped: byte, to: &output)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes `%XX` triplets; invalid triplets are kept as written. Used only to inspect text
    /// (dot-segment checks), never to build a URL.
    static func decode(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, isHexDigit(bytes[index + 1]),
                isHexDigit(bytes[index + 2]),
                let value = UInt8(String(decoding: bytes[index + 1...index + 2], as: UTF8.self), radix: 16)
            {
                output.append(value)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
