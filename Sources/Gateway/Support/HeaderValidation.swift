/// Refuses header fields that would break the request on the wire or smuggle in other fields.
enum HeaderValidation {
    /// - Throws: `GatewayError` of kind `.invalidRequest` for a name that is not an HTTP token or
    ///   a value with CR, LF or NUL. The message names the field, never its value.
    static func check(_ headers: HTTPHeaders) throws {
        for field in headers {
            var name = field.name
            guard !name.isEmpty, name.withUTF8({ $0.allSatisfy(isTokenByte) }) else {
                throw GatewayError(.invalidRequest, "the header name \"\(field.name.prefix(100))\" is not a valid "
                                   + "HTTP field name", fix: "use letters, digits and !#$%&'*+-.^_`|~ only")
            }
            guard !breaksLine(field.value) else {
                throw GatewayError(
                    .invalidRequest, "the value of header \"\(field.name)\" contains a line break or NUL",
                    fix: "remove CR, LF and NUL characters from header values")
            }
        }
    }

    /// Whether a header value holds CR, LF or NUL, which would end its line on the wire (and
    /// could start a field of its own): what every check of header values refuses.
    static func breaksLine(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { $0.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 } }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
