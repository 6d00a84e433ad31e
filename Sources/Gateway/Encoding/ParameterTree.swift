import Foundation

/// Any `Encodable` value as a tree of strings, booleans, dates, arrays and keyed objects: what the
/// query, form and multipart encoders write out.
///
/// Built by `ParameterTreeEncoder`; nesting deeper than `maxDepth` is an encoding error, so every
/// walk over a tree is bounded.
final class ParameterNode {
    enum Content {
        /// Nothing was encoded (an empty container, or not yet filled).
        case unset
        /// `nil`: left out when written.
        case null
        case string(String)
        case bool(Bool)
        case date(Date)
        case array([ParameterNode])
        case object([String: ParameterNode])
    }

    var content: Content = .unset

    /// The deepest nesting accepted; deeper values (or a value that refers to itself) fail.
    static let maxDepth = 32

    func makeObject() {
        if case .object = content { return }
        content = .object([:])
    }

    func makeArray() {
        if case .array = content { return }
        content = .array([])
    }

    func child(forKey key: String) -> ParameterNode {
        makeObject()
        guard case .object(var children) = content else { return ParameterNode() }
        if let existing = children[key] { return existing }
        let node = ParameterNode()
        content = .unset  // drop the old storage's reference so the insert does not copy
        children[key] = node
        content = .object(children)
        return node
    }

    func appendChild() -> ParameterNode {
        makeArray()
        guard case .array(var children) = content else { return ParameterNode() }
        let node = ParameterNode()
        content = .unset
        children.append(node)
        content = .array(children)
        return node
    }

    var count: Int {
        if case .array(let children) = content { return children.count }
        return 0
    }
}

/// Turns `Encodable` values into a `ParameterNode` tree.
struct ParameterTreeEncoder {
    /// Encodes `value` and returns the root of its tree.
    ///
    /// - Throws: `EncodingError` for values nested deeper than `ParameterNode.maxDepth`, or for
    ///   numbers that are not finite.
    static func tree(for value: any Encodable) throws -> ParameterNode {
        let root = ParameterNode()
        try encode(value, into: root, codingPath: [], depth: 0)
        return root
    }

    static func encode<T: Encodable>(
        _ value: T, into node: ParameterNode, codingPath: [any CodingKey], depth: Int
    ) throws {
        // `depth` counts nested encode calls, so a value that encodes itself through a
        // single-value container (which adds nothing to the coding path) is stopped too.
        guard codingPath.count <= ParameterNode.maxDepth, depth <= 2 * ParameterNode.maxDepth else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: codingPath,
                debugDescription: "nested deeper than \(ParameterNode.maxDepth) levels (or a value refers to itself)"))
        }
        if let date = value as? Date {
            node.content = .date(date)
        } else if let url = value as? URL {
            node.content = .string(url.absoluteString)
        } else if let decimal = value as? Decimal {
            node.content = .string(decimal.description)
        } else if let data = value as? Data {
            node.content = .string(data.base64EncodedString())
        } else {
            try value.encode(to: TreeEncoder(node: node, codingPath: codingPath, depth: depth))
        }
    }

    static func text(for double: Double, codingPath: [any CodingKey]) throws -> String {
        guard double.isFinite else {
            throw EncodingError.invalidValue(double, EncodingError.Context(
                codingPath: codingPath, debugDescription: "\(double) cannot be written in a URL"))
        }
        return URLEncodingOptions.number(double)
    }
}

/// The `Encoder` behind `ParameterTreeEncoder`: each container writes into one node.
private struct TreeEncoder: Encoder {
    let node: ParameterNode
    let codingPath: [any CodingKey]
    let depth: Int
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath, depth: depth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedContainer(node: node, codingPath: codingPath, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath, depth: depth)
    }
}

/// An integer index as a coding key, for paths into arrays.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: ParameterNode
    let codingPath: [any CodingKey]
    let depth: Int

    private func set(_ content: ParameterNode.Content, _ key: Key) {
        node.child(forKey: key.stringValue).content = content
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(.string(try ParameterTreeEncoder.text(for: value, codingPath: codingPath + [key])), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(.string(try ParameterTreeEncoder.text(for: Double(value), codingPath: codingPath + [key])), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.string(String(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.string(String(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.string(String(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.string(String(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.string(String(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(.string(String(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.string(String(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.string(String(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.string(String(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(.string(String(value)), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = node.child(forKey: key.stringValue)
        try ParameterTreeEncoder.encode(value, into: child, codingPath: codingPath + [key], depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = node.child(forKey: key.stringValue)
        child.makeObject()
        let container = KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key], depth: depth)
        return KeyedEncodingContainer(container)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(forKey: key.stringValue)
        child.makeArray()
        return UnkeyedContainer(node: child, codingPath: codingPath + [key], depth: depth)
    }

    mutating func superEncoder() -> any Encoder {
        TreeEncoder(node: node.child(forKey: "super"), codingPath: codingPath, depth: depth)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key], depth: depth)
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: ParameterNode
    let codingPath: [any CodingKey]
    let depth: Int
    var count: Int { node.count }

    private func append(_ content: ParameterNode.Content) { node.appendChild().content = content }
    private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws {
        append(.string(try ParameterTreeEncoder.text(for: value, codingPath: nextPath)))
    }
    mutating func encode(_ value: Float) throws {
        append(.string(try ParameterTreeEncoder.text(for: Double(value), codingPath: nextPath)))
    }
    mutating func encode(_ value: Int) throws { append(.string(String(value))) }
    mutating func encode(_ value: Int8) throws { append(.string(String(value))) }
    mutating func encode(_ value: Int16) throws { append(.string(String(value))) }
    mutating func encode(_ value: Int32) throws { append(.string(String(value))) }
    mutating func encode(_ value: Int64) throws { append(.string(String(value))) }
    mutating func encode(_ value: UInt) throws { append(.string(String(value))) }
    mutating func encode(_ value: UInt8) throws { append(.string(String(value))) }
    mutating func encode(_ value: UInt16) throws { append(.string(String(value))) }
    mutating func encode(_ value: UInt32) throws { append(.string(String(value))) }
    mutating func encode(_ value: UInt64) throws { append(.string(String(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        try ParameterTreeEncoder.encode(value, into: node.appendChild(), codingPath: path, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let child = node.appendChild()
        child.makeObject()
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: path, depth: depth))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let child = node.appendChild()
        child.makeArray()
        return UnkeyedContainer(node: child, codingPath: path, depth: depth)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return TreeEncoder(node: node.appendChild(), codingPath: path, depth: depth)
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let node: ParameterNode
    let codingPath: [any CodingKey]
    let depth: Int

    mutating func encodeNil() throws { node.content = .null }
    mutating func encode(_ value: Bool) throws { node.content = .bool(value) }
    mutating func encode(_ value: String) throws { node.content = .string(value) }
    mutating func encode(_ value: Double) throws {
        node.content = .string(try ParameterTreeEncoder.text(for: value, codingPath: codingPath))
    }
    mutating func encode(_ value: Float) throws {
        node.content = .string(try ParameterTreeEncoder.text(for: Double(value), codingPath: codingPath))
    }
    mutating func encode(_ value: Int) throws { node.content = .string(String(value)) }
    mutating func encode(_ value: Int8) throws { node.content = .string(String(value)) }
    mutating func encode(_ value: Int16) throws { node.content = .string(String(value)) }
    mutating func encode(_ value: Int32) throws { node.content = .string(String(value)) }
    mutating func encode(_ value: Int64) throws { node.content = .string(String(value)) }
    mutating func encode(_ value: UInt) throws { node.content = .string(String(value)) }
    mutating func encode(_ value: UInt8) throws { node.content = .string(String(value)) }
    mutating func encode(_ value: UInt16) throws { node.content = .string(String(value)) }
    mutating func encode(_ value: UInt32) throws { node.content = .string(String(value)) }
    mutating func encode(_ value: UInt64) throws { node.content = .string(String(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try ParameterTreeEncoder.encode(value, into: node, codingPath: codingPath, depth: depth + 1)
    }
}
