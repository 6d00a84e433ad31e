import GraphQLLanguage

/// How entry fields are written as text in a database, and read back.
///
/// Headers are `Name: value` lines ending in CRLF, as on the wire (readable in any SQLite shell,
/// and fast to read back); tags and `Vary` fields are JSON arrays.
package enum CacheStorageCoding {
    /// `Name: value\r\n` per field. Fields whose name or value holds CR, LF or NUL (which no valid
    /// HTTP field can) are left out, so that every stored line reads back as the field it was.
    package static func encodeHeaders(_ headers: HTTPHeaders) -> String {
        var text = ""
        for field in headers {
            guard !field.name.isEmpty, !field.name.utf8.contains(where: isBreak), !field.name.contains(":"),
                  !field.value.utf8.contains(where: isBreak)
            else { continue }
            text += field.name + ": " + field.value + "\r\n"
        }
        return text
    }

    /// Reads `encodeHeaders` text; lines without `: ` are skipped.
    package static func decodeHeaders(_ bytes: UnsafeRawBufferPointer) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        var lineStart = 0
        var index = 0
        let count = bytes.count
        while index < count {
            if bytes[index] == 0x0D, index + 1 < count, bytes[index + 1] == 0x0A {
                if let field = field(in: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<index])) {
                    fields.append(field)
                }
                index += 2
                lineStart = index
            } else {
                index += 1
            }
        }
        if lineStart < count, let field = field(in: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<count])) {
            fields.append(field)
        }
        return HTTPHeaders(fields)
    }

    /// Reads `encodeHeaders` text.
    package static func decodeHeaders(_ text: String) -> HTTPHeaders {
        var text = text
        return text.withUTF8 { decodeHeaders(UnsafeRawBufferPointer($0)) }
    }

    private static func field(in line: UnsafeRawBufferPointer) -> HTTPHeaders.Field? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        var valueStart = colon + 1
        if valueStart < line.count, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: line[0..<colon]), as: UTF8.self)
        let value = String(decoding: UnsafeRawBufferPointer(rebasing: line[valueStart..<line.count]), as: UTF8.self)
        return HTTPHeaders.Field(name: name, value: value)
    }

    private static func isBreak(_ byte: UInt8) -> Bool { byte == 0x0D || byte == 0x0A || byte == 0 }

    /// The tags as a JSON array of strings.
    package static func encodeTags(_ tags: [String]) -> String {
        tags.isEmpty ? "[]" : JSONValue.array(tags.map { .string($0) }).serialized(.compact)
    }

    /// Reads `encodeTags` text; anything unreadable gives no tags.
    package static func decodeTags(_ text: String) -> [String] {
        guard text != "[]", let value = try? JSONValue(parsing: text), let items = value.arrayValue else { return [] }
        return items.compactMap(\.stringValue)
    }

    /// The `Vary` fields as a JSON array of `[name, value-or-null]` pairs.
    package static func encodeVary(_ fields: [CacheKeyComponents.VaryField]) -> String {
        guard !fields.isEmpty else { return "[]" }
        return JSONValue.array(fields.map { .array([.string($0.name), $0.value.map { .string($0) } ?? .null]) })
            .serialized(.compact)
    }

    /// Reads `encodeVary` text; anything unreadable gives no fields.
    package static func decodeVary(_ text: String) -> [CacheKeyComponents.VaryField] {
        guard text != "[]", let value = try? JSONValue(parsing: text), let items = value.arrayValue else { return [] }
        return items.compactMap { item in
            guard let pair = item.arrayValue, pair.count == 2, let name = pair[0].stringValue else { return nil }
            return CacheKeyComponents.VaryField(name: name, value: pair[1].stringValue)
        }
    }
}
