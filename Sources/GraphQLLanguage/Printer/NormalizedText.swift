/// The normalized text of one operation, made by ``Normalizer/normalize(_:operationName:limits:)``
/// straight from source text: the bytes ``NormalizedOperation`` holds for the same document, without
/// the syntax tree.
public struct NormalizedText: Sendable, Hashable {
    /// The normalized text as UTF-8 bytes, ready to hash.
    public let bytes: [UInt8]
    /// The operation's kind.
    public let operationType: OperationType
    /// The operation's name; `nil` for an anonymous operation.
    public let operationName: String?
    /// The names of the fragments used, sorted by name: the order they appear in ``text``.
    public let fragmentNames: [String]

    /// The normalized text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    init(bytes: [UInt8], operationType: OperationType, operationName: String?, fragmentNames: [String]) {
        self.bytes = bytes
        self.operationType = operationType
        self.operationName = operationName
        self.fragmentNames = fragmentNames
    }

    init(_ normalized: NormalizedOperation) {
        self.init(
            bytes: normalized.bytes, operationType: normalized.operationType,
            operationName: normalized.operationName, fragmentNames: normalized.fragmentNames)
    }
}
