import Foundation
import Gateway
import GraphQLLanguage

/// What `gateway cache` never prints: the values of token-like fields, wherever they appear.
///
/// The names are `RedactionRules.standard`'s (`access_token`, `refresh_token`, `id_token`,
/// `password`, `client_secret`, the `Authorization` and `Cookie` headers, ...) and any added
/// with `--redact NAME`. A value is replaced by `<redacted>`:
/// - in JSON (response bodies, variables), in a member of that name at any depth, and inside
///   string values that carry `name=value` or `name: value` text (a URL with `?access_token=`);
/// - in headers, the whole value of a header of that name (compared without case, and also as
///   a field name, so `X-Refresh-Token` counts as `refresh_token`), and `name=value` text in
///   any other header (a `Location` URL);
/// - in URLs, the value of a query item of that name;
/// - in any other text (a text body, the operation text, a tag), the value after `name=`,
///   `name:`, `"name":` and the like.
struct CacheRedactor: Sendable {
    /// What a redacted value prints as.
    static let placeholder = Redaction.placeholder

    let rules: RedactionRules
    /// The field names as `RedactionRules` compares them: lower-case, without `_`, `-` or `.`.
    private let fieldKeys: [String]

    /// The standard rules with `names` added as header, query item and field names.
    init(adding names: [String] = []) {
        rules = names.isEmpty ? .standard : RedactionRules.standard.adding(headers: names, queryItems: names,
                                                                           bodyFields: names)
        fieldKeys = rules.bodyFields.union(rules.queryItems).map(Self.key)
    }

    /// Whether the value of a header (or of a `Vary` component) of this name is hidden whole: a
    /// sensitive header, or a name that ends like a sensitive field (`X-Refresh-Token`, `X-Auth-Token`).
    func isSensitiveHeader(_ name: String) -> Bool {
        if rules.isSensitiveHeader(name) || rules.isSensitiveField(name) { return true }
        let key = Self.key(name)
        return fieldKeys.contains { key.hasSuffix($0) }
    }

    private static func key(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != "." })
    }

    /// The header fields with sensitive values hidden.
    func headers(_ headers: HTTPHeaders) -> [HTTPHeaders.Field] {
        headers.map { field in
            HTTPHeaders.Field(name: field.name, value: header(field.name, field.value))
        }
    }

    /// One header value, hidden when its name is sensitive, scrubbed otherwise.
    func header(_ name: String, _ value: String) -> String {
        isSensitiveHeader(name) ? CacheRedactor.placeholder : text(value)
    }

    /// A URL with the values of sensitive query items (and any user info) hidden.
    func url(_ text: String) -> String {
        guard let url = URL(string: text), url.scheme != nil else { return self.text(text) }
        return rules.redactedURL(url)
    }

    /// A JSON value with sensitive members hidden at any depth and string values scrubbed.
    ///
    /// Recursion follows the value's nesting, which the JSON parser bounds (512 levels).
    func json(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(var object):
            for index in object.members.indices {
                if rules.isSensitiveField(object.members[index].key) {
                    object.members[index].value = .string(CacheRedactor.placeholder)
                } else {
                    object.members[index].value = json(object.members[index].value)
                }
            }
            return .object(object)
        case .array(let items):
            return .array(items.map(json))
        case .string(let string):
            return .string(text(string))
        default:
            return value
        }
    }

    /// Canonical variables text as a redacted JSON value (a string when it is not JSON).
    func variables(_ canonical: String?) -> JSONValue {
        guard let canonical else { return .null }
        guard let value = try? JSONValue(parsing: canonical) else { return .string(text(canonical)) }
        return json(value)
    }

    /// A response body, redacted, in the form it can be shown.
    enum Body {
        /// No bytes.
        case empty
        /// A JSON document (whatever the content type says).
        case json(JSONValue)
        /// UTF-8 text that is not JSON.
        case text(String)
        /// Bytes that are not UTF-8 text: never shown.
        case binary(Int)
    }

    /// The body as JSON, text or a byte count, with secrets hidden.
    func body(_ data: Data, contentType: String?) -> Body {
        guard !data.isEmpty else { return .empty }
        let bytes = [UInt8](data)
        if let value = try? JSONValue(parsing: bytes) { return .json(json(value)) }
        guard !bytes.contains(0), let string = String(data: data, encoding: .utf8) else {
            return .binary(data.count)
        }
        if (contentType ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded"),
           let form = rules.redactedBody(data, contentType: contentType) {
            return .text(text(form))
        }
        return .text(text(string))
    }

    /// Free text with the value after each sensitive name followed by `=` or `:` hidden:
    /// `password=x`, `"access_token": "x"`, `Authorization: Bearer x`, `token:"x"`.
    ///
    /// One pass over the bytes; a quoted value is hidden up to its closing quote, an unquoted
    /// one up to white space or `& , ; ) ] }` (an authorization scheme such as `Bearer` takes the
    /// next word with it). A GraphQL variable (`token:$token`) and a nested object are left alone.
    func text(_ string: String) -> String {
        let bytes = Array(string.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard Self.isWordByte(bytes[index]), index == 0 || !Self.isWordByte(bytes[index - 1]) else {
                out.append(bytes[index])
                index += 1
                continue
            }
            var end = index
            while end < bytes.count, Self.isWordByte(bytes[end]) { end += 1 }
            out.append(contentsOf: bytes[index..<end])
            let word = String(decoding: bytes[index..<end], as: UTF8.self)
            // `$name` is a GraphQL variable: its definition (`$token:String`) hides nothing.
            let isVariable = index > 0 && bytes[index - 1] == UInt8(ascii: "$")
            index = end
            guard !isVariable, rules.isSensitiveField(word) || isSensitiveHeader(word),
                  let valueStart = Self.valueStart(bytes, after: end)
            else { continue }
            out.append(contentsOf: bytes[end..<valueStart])
            index = valueStart
            guard valueStart < bytes.count else { continue }
            let first = bytes[valueStart]
            if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
                out.append(first)
                out.append(contentsOf: CacheRedactor.placeholder.utf8)
                index = Self.closingQuote(bytes, from: valueStart + 1, quote: first)
                if index < bytes.count {
                    out.append(first)
                    index += 1
                }
            } else if first != UInt8(ascii: "$"), first != UInt8(ascii: "{"), first != UInt8(ascii: "["),
                      !Self.isTerminator(first) {
                out.append(contentsOf: CacheRedactor.placeholder.utf8)
                index = Self.unquotedEnd(bytes, from: valueStart)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Scanning

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), 0x80...:
            true
        default:
            false
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func isTerminator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "&"),
             UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
            true
        default:
            false
        }
    }

    /// Where the value starts after a name ending at `end`: past an optional closing quote,
    /// spaces, `=` or `:`, and spaces; `nil` when no `=` or `:` follows.
    private static func valueStart(_ bytes: [UInt8], after end: Int) -> Int? {
        var position = end
        if position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") {
            position += 1
        }
        while position < bytes.count, isSpace(bytes[position]) { position += 1 }
        guard position < bytes.count, bytes[position] == UInt8(ascii: "=") || bytes[position] == UInt8(ascii: ":")
        else { return nil }
        position += 1
        while position < bytes.count, isSpace(bytes[position]) { position += 1 }
        return position
    }

    /// The index of the quote closing a value that starts at `start` (backslash escapes
    /// skipped), or the end of the text when it is never closed.
    private static func closingQuote(_ bytes: [UInt8], from start: Int, quote: UInt8) -> Int {
        var position = start
        while position < bytes.count, bytes[position] != quote {
            position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
        }
        return min(position, bytes.count)
    }

    /// The end of an unquoted value; an authorization scheme (`Bearer x`) includes the next word.
    private static func unquotedEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var position = start
        while position < bytes.count, !isTerminator(bytes[position]) { position += 1 }
        let first = String(decoding: bytes[start..<position], as: UTF8.self).lowercased()
        let schemes: Set<String> = ["bearer", "basic", "token", "digest", "negotiate", "mac", "dpop"]
        guard schemes.contains(first) else { return position }
        var next = position
        while next < bytes.count, isSpace(bytes[next]) { next += 1 }
        guard next > position, next < bytes.count, !isTerminator(bytes[next]) else { return position }
        while next < bytes.count, !isTerminator(bytes[next]) { next += 1 }
        return next
    }
}
