/// An error in JSON text: what is wrong, and where (byte offset, 1-based line and column).
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public let offset: Int
    public let line: Int
    public let column: Int

    public var description: String { "JSON error at line \(line), column \(column): \(message)" }
}

extension JSONValue {
    /// The deepest nesting of arrays and objects the parser accepts by default.
    public static let defaultMaximumDepth = 512

    /// Parses JSON text (RFC 8259); a leading UTF-8 BOM is ignored.
    ///
    /// - Parameters:
    ///   - text: the JSON text.
    ///   - maximumDepth: nesting beyond this is an error, not a stack overflow.
    /// - Throws: `JSONSyntaxError` with the position of the first problem.
    public init(parsing text: String, maximumDepth: Int = JSONValue.defaultMaximumDepth) throws(JSONSyntaxError) {
        var text = text
        let result: Result<JSONValue, JSONSyntaxError> = text.withUTF8 { bytes in
            var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
            return Result { () throws(JSONSyntaxError) -> JSONValue in try parser.parseDocument() }
        }
        self = try result.get()
    }

    /// Parses JSON from UTF-8 bytes.
    public init(parsing bytes: [UInt8], maximumDepth: Int = JSONValue.defaultMaximumDepth) throws(JSONSyntaxError) {
        let result: Result<JSONValue, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, maximumDepth: maximumDepth)
            return Result { () throws(JSONSyntaxError) -> JSONValue in try parser.parseDocument() }
        }
        self = try result.get()
    }
}

/// A recursive-descent JSON parser over UTF-8 bytes with a depth limit.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var index = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw error("the text is empty; expected a JSON value") }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
        return value
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let offset = min(offset ?? index, bytes.count)
        var line = 1, column = 1, position = 0
        while position < offset {
            let byte = bytes[position]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            position += 1
        }
        return JSONSyntaxError(message: message, offset: offset, line: line, column: column)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of text; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default:
            throw error("unexpected character '\(Unicode.Scalar(bytes[index]))'; expected a JSON value")
        }
    }

    mutating func expectWord(_ word: StaticString) throws(JSONSyntaxError) {
        let start = index
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw error("unexpected end of text in a literal", at: start) }
        let pointer = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] {
            throw error("invalid literal; expected \(word)", at: start)
        }
        index += count
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > maximumDepth { throw error("nesting deeper than \(maximumDepth) levels") }
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array; expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("expected ',' or ']' in an array")
        }
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [JSONObject.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(members))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a member name in double quotes")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a member name") }
            index += 1
            skipWhitespace()
            members.append(JSONObject.Member(key: key, value: try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object; expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(JSONObject(members)) }
            throw error("expected ',' or '}' in an object")
        }
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in a number", at: index) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("a number cannot start with 0", at: start) }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, Int(text) == nil {
            return JSONNumber(source: text, isInteger: false)  // Too large for an integer: keep as a float.
        }
        return JSONNumber(source: text, isInteger: isInteger)
    }

    /// The offset of the first byte in `run` that does not begin or continue a valid UTF-8
    /// sequence (overlong forms and surrogates included), or `nil` when it is all valid.
    static func firstInvalidUTF8(in run: UnsafeBufferPointer<UInt8>) -> Int? {
        if run.allSatisfy({ $0 < 0x80 }) { return nil }
        var iterator = run.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flush(_ end: Int, into scalars: inout String.UnicodeScalarView) throws(JSONSyntaxError) {
            guard end > runStart else { return }
            let run = UnsafeBufferPointer(rebasing: bytes[runStart..<end])
            if let bad = Self.firstInvalidUTF8(in: run) {
                throw error("invalid UTF-8 in a string at byte offset \(runStart + bad)", at: runStart + bad)
            }
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flush(index, into: &scalars)
                index += 1
                return String(scalars)
            }
            if byte < 0x20 { throw error("a control character must be escaped in a string") }
            if byte == UInt8(ascii: "\\") {
                try flush(index, into: &scalars)
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let first = try parseHex4()
                    if (0xD800...0xDBFF).contains(first) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("a high surrogate must be followed by a low surrogate escape")
                        }
                        index += 2
                        let second = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(second),
                              let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
                        else { throw error("invalid surrogate pair") }
                        scalars.append(scalar)
                    } else if let scalar = Unicode.Scalar(first) {
                        scalars.append(scalar)
                    } else {
                        throw error("a lone low surrogate is not a character")
                    }
                default:
                    throw error("invalid escape '\\\(Unicode.Scalar(escape))'", at: index - 2)
                }
                runStart = index
                continue
            }
            index += 1
        }
        throw error("unterminated string", at: start)
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("expected four hex digits after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
