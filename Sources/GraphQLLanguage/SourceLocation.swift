/// A half-open range of byte offsets into a ``Source``'s ``Source/bytes``.
///
/// Every AST node carries one: `start` is the offset of its first token's first byte and `end` the
/// offset just past its last token. Nodes made by hand rather than parsed carry ``SourceRange/none``.
/// Turn an offset into a line and column with ``Source/location(at:)``.
public struct SourceRange: Sendable, Hashable {
    // Stored in 32 bits to keep AST nodes small; the parser never reads sources of 4 GiB or more.
    private var storedStart: UInt32
    private var storedEnd: UInt32

    /// The offset of the first byte.
    public var start: Int {
        get { Int(storedStart) }
        set { storedStart = UInt32(clamping: newValue) }
    }

    /// The offset just past the last byte.
    public var end: Int {
        get { Int(storedEnd) }
        set { storedEnd = UInt32(clamping: newValue) }
    }

    /// Creates a range from `start` up to, not including, `end` (each clamped to `0...UInt32.max`).
    public init(start: Int, end: Int) {
        storedStart = UInt32(clamping: start)
        storedEnd = UInt32(clamping: end)
    }

    /// The empty range at offset 0, used by nodes that were not parsed from text.
    public static let none = SourceRange(start: 0, end: 0)

    /// The number of bytes the range covers.
    public var count: Int { end - start }
}

/// A position in a source: its byte offset, 1-based line and 1-based column.
///
/// Lines end at LF, CR or CRLF. Columns count Unicode code points from the start of the line, so a
/// position after a non-ASCII character is one column per character, not per byte.
public struct SourceLocation: Sendable, Hashable {
    /// The byte offset into the source's bytes.
    public var offset: Int
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, counted in code points.
    public var column: Int
    /// The source the position is in, when known; it gives the path and the text for rendering.
    public var source: Source?

    /// Creates a location.
    /// - Parameters:
    ///   - offset: The byte offset.
    ///   - line: The 1-based line.
    ///   - column: The 1-based column in code points.
    ///   - source: The source the position is in, if known.
    public init(offset: Int, line: Int, column: Int, source: Source? = nil) {
        self.offset = offset
        self.line = line
        self.column = column
        self.source = source
    }
}
