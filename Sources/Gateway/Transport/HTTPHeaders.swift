/// An ordered list of HTTP header fields with case-insensitive names.
///
/// Order is kept as written; look-ups ignore the case of the name. Setting a field replaces
/// every field of that name; adding one keeps the others.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Creates an empty list.
    public init() { fields = [] }

    /// Creates a list from fields, in order.
    public init(_ fields: [Field]) { self.fields = fields }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of the named field, or `nil`; setting replaces every field of that name
    /// (`nil` removes them).
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            guard let index = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) else {
                if let newValue { fields.append(Field(name: name, value: newValue)) }
                return
            }
            guard let newValue else { return remove(name) }
            fields[index].value = newValue
            var next = index + 1
            while next < fields.count {
                if fields[next].name.caseInsensitiveEquals(name) { fields.remove(at: next) } else { next += 1 }
            }
        }
    }

    /// Every value of the named field, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Appends a field, keeping any others of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field of that name.
    public mutating func remove(_ name: String) {
        // Fields shared with a copy are copied only when one of them goes.
        guard contains(name) else { return }
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Whether a field of that name is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.caseInsensitiveEquals(name) }
    }

    /// Adds the fields of `other`, replacing fields of the same names.
    public mutating func merge(_ other: HTTPHeaders) {
        guard !other.fields.isEmpty else { return }
        guard !fields.isEmpty else {
            fields = other.fields
            return
        }
        for field in other.fields { remove(field.name) }
        fields.append(contentsOf: other.fields)
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The fields as `Name: value` lines; values of sensitive fields are shown as `<redacted>`.
    public var description: String {
        fields.map { "\($0.name): \(Redaction.isSensitiveHeader($0.name) ? Redaction.placeholder : $0.value)" }
            .joined(separator: "\n")
    }
}

extension HTTPHeaders {
    /// The body length `Content-Length` announces, when it counts the bytes a client hands
    /// over: `nil` when it is missing or malformed, and with a `Content-Encoding` other than
    /// `identity` (a client that decompresses hands over more bytes than it counts).
    public var declaredBodyLength: Int? {
        if let encoding = self["Content-Encoding"], !HTTPHeaders.trimmed(encoding).caseInsensitiveEquals("identity") {
            return nil
        }
        guard let text = self["Content-Length"].map(HTTPHeaders.trimmed), !text.isEmpty, text.utf8.count <= 18,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return text.utf8.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// Whether a field of this name frames the body (`Content-Length`, `Transfer-Encoding`):
    /// a client writes those itself from the body it sends.
    public static func isFraming(_ name: String) -> Bool {
        let count = name.utf8.count
        guard count == 14 || count == 17 else { return false }
        return name.caseInsensitiveEquals("content-length") || name.caseInsensitiveEquals("transfer-encoding")
    }

    /// `text` without leading and trailing spaces and tabs.
    private static func trimmed(_ text: String) -> Substring {
        // By bytes: spaces and tabs are single bytes, so what remains starts and ends on whole scalars.
        let bytes = text.utf8
        let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return Substring(bytes[first...last])
    }
}

extension StringProtocol {
    /// ASCII case-insensitive equality, as HTTP field names compare.
    func caseInsensitiveEquals(_ other: some StringProtocol) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        // Native strings compare their bytes in place; others (bridged ones) go through their views.
        let inPlace = a.withContiguousStorageIfAvailable { x in
            b.withContiguousStorageIfAvailable { y in Self.equalIgnoringASCIICase(x, y) }
        }
        if case let equal?? = inPlace { return equal }
        return Self.equalIgnoringASCIICase(a, b)
    }

    /// Whether two byte sequences of the same length agree, ASCII letters compared without case.
    private static func equalIgnoringASCIICase(_ a: some Sequence<UInt8>, _ b: some Sequence<UInt8>) -> Bool {
        for (x, y) in zip(a, b) where x != y {
            let lx = (x >= 65 && x <= 90) ? x | 0x20 : x
            let ly = (y >= 65 && y <= 90) ? y | 0x20 : y
            if lx != ly { return false }
        }
        return true
    }
}
