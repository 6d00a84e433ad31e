/// Turns an executable document into the normalized text of one operation: the text a response
/// cache keys on, so that documents meaning the same request give the same bytes.
///
/// The rules:
/// 1. **One operation.** The operation named by `operationName` is selected, or the document's only
///    operation when no name is given. An unknown name, a name several operations share, several
///    operations and no name, or no operation at all is an ``OperationSelectionError``.
/// 2. **Only the fragments it uses.** The fragments the operation spreads, directly or through
///    other fragments, follow it, each once, sorted by name (UTF-8 byte order). Every other
///    definition is dropped. A spread of an undefined fragment, or of a name defined twice, is an
///    error. Fragment cycles end: each fragment is visited once.
/// 3. **Compact.** No comments, no commas, no line breaks and no white space, except one space
///    between two tokens that would otherwise run together: a name, keyword or number followed by a
///    name, keyword or number that starts with a letter, digit or `_` (`query Q`, `a b`, `a:1 b:2`,
///    `...on T`), and a string followed by a string.
/// 4. **Order that carries no meaning is fixed.** Arguments (of fields and directives), variable
///    definitions and the fields of input object values are sorted by name (UTF-8 byte order; a
///    stable sort, so repeated names keep their written order).
/// 5. **Order that carries meaning is kept.** Selections, directives, list items and definitions'
///    own structure stay in the written order.
/// 6. **One spelling per value.** Strings, block strings included, are written as quoted strings
///    escaped as graphql-js's `printString` does (`\"`, `\\`, `\b \t \n \f \r`, `\u00XX` for other
///    control characters; everything else as UTF-8). Numbers, enum values and names are written as
///    in the source (`1.0` and `1.00` stay different literals). The anonymous query without
///    variables or directives is written as the `{...}` shorthand, with or without `query` in the
///    source.
///
/// The result parses, and normalizing it again gives the same bytes. Two documents that differ only
/// in layout, comments, commas, argument, variable or input-field order, fragment order, string
/// spelling or unused definitions give the same text.
///
/// Selection sets and values are walked with explicit stacks, never recursion, and everything is
/// written into one byte buffer.
///
/// When the syntax tree is not needed, ``normalize(_:operationName:limits:)`` makes the same text
/// straight from source text (parsing included) in a fraction of the time, with the same errors.
///
/// ```swift
/// let normalized = try Normalizer.normalize(document, operationName: "GetTrack")
/// print(normalized.text)
/// // query GetTrack($id:ID!){track(id:$id){...TrackFields}}fragment TrackFields on Track{id title}
/// print(normalized.prettyText)  // the same operation and fragments in ``Printer``'s pretty form
/// ```
public enum Normalizer {
    /// Normalizes one operation of a document.
    /// - Parameters:
    ///   - document: A parsed document; type-system definitions in it are ignored.
    ///   - operationName: The operation to select; `nil` selects the only one.
    /// - Returns: The normalized text with the operation and fragments it was made from.
    /// - Throws: ``OperationSelectionError`` when the operation cannot be selected or a fragment it
    ///   uses is missing or defined twice.
    public static func normalize(
        _ document: Document, operationName: String? = nil
    ) throws(OperationSelectionError) -> NormalizedOperation {
        var index = try DocumentIndex(document, operationName: operationName)
        var writer = CompactWriter(capacity: max(64, document.range.count))
        return try writer.normalize(&index)
    }

    /// The normalized text of an operation already selected with its fragments.
    /// - Parameter selection: The operation and its fragments.
    /// - Returns: The normalized text, as ``normalize(_:operationName:)`` writes it.
    /// - Throws: ``OperationSelectionError`` when the selection lacks a fragment the operation uses.
    public static func normalizedText(of selection: OperationSelection) throws(OperationSelectionError) -> String {
        try normalize(selection.document, operationName: nil).text
    }
}

/// The result of ``Normalizer/normalize(_:operationName:)``: the normalized text and what it was
/// made from.
public struct NormalizedOperation: Sendable, Hashable {
    /// The normalized text as UTF-8 bytes, ready to hash.
    public let bytes: [UInt8]
    /// The operation and the fragments it uses, as parsed (fragments in document order).
    public let selection: OperationSelection
    /// The names of the fragments used, sorted by name: the order they appear in ``text``.
    public let fragmentNames: [String]

    /// The normalized text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }
    /// The operation's kind.
    public var operationType: OperationType { selection.operation.operation }
    /// The operation's name; `nil` for an anonymous operation.
    public var operationName: String? { selection.operation.name?.value }
    /// The operation's variable definitions, in the order written (defaults included).
    public var variableDefinitions: [VariableDefinition] { selection.operation.variableDefinitions }
    /// The operation and its fragments in ``Printer``'s pretty form: what a request sends when it
    /// should stay readable.
    public var prettyText: String { Printer.print(selection) }

    init(bytes: [UInt8], selection: OperationSelection, fragmentNames: [String]) {
        self.bytes = bytes
        self.selection = selection
        self.fragmentNames = fragmentNames
    }
}
