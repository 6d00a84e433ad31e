/// A problem found in a GraphQL source: a syntax error, a schema error or a validation error.
///
/// ``rendered()`` prints it the way compilers do, so editors and terminals can jump to it:
///
/// ```
/// Queries/Hero.graphql:3:7: error: Syntax Error: Unexpected character: U+0007.
///     id␇
///       ^
/// ```
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, CaseIterable {
        /// The document is wrong; tools exit with a failure.
        case error
        /// Worth fixing, but the document is still usable.
        case warning
        /// Extra information attached to another diagnostic.
        case note
    }

    /// What is wrong, in graphql-js's words where graphql-js reports the same problem.
    public var message: String
    /// The places the problem involves, most important first; may be empty.
    public var locations: [SourceLocation]
    /// The name of the validation rule that found the problem, for example `"KnownTypeNamesRule"`.
    public var rule: String?
    /// How serious the problem is.
    public var severity: Severity

    /// Creates a diagnostic.
    /// - Parameters:
    ///   - message: What is wrong.
    ///   - locations: The places involved, most important first.
    ///   - rule: The validation rule that found it, if any.
    ///   - severity: How serious it is.
    public init(message: String, locations: [SourceLocation] = [], rule: String? = nil, severity: Severity = .error) {
        self.message = message
        self.locations = locations
        self.rule = rule
        self.severity = severity
    }

    /// The rendered text; see ``rendered()``.
    public var description: String { rendered() }

    /// Renders the diagnostic as `path:line:column: severity: message [rule]`, followed by the
    /// source line and a caret under the column, for each location.
    ///
    /// Further locations are rendered as `note:` lines with their own source line and caret. A
    /// location without a source renders as `line:column:`; a diagnostic without locations as
    /// `severity: message`.
    /// - Returns: The text, lines separated by `\n`, without a trailing newline.
    public func rendered() -> String {
        var header = message
        if let rule { header += " [\(rule)]" }
        guard let first = locations.first else { return "\(severity.rawValue): \(header)" }
        var lines = ["\(Self.prefix(of: first)) \(severity.rawValue): \(header)"]
        lines += Self.snippet(at: first)
        for location in locations.dropFirst() {
            lines.append("\(Self.prefix(of: location)) note: related location")
            lines += Self.snippet(at: location)
        }
        return lines.joined(separator: "\n")
    }

    private static func prefix(of location: SourceLocation) -> String {
        if let source = location.source {
            return "\(source.name):\(location.line):\(location.column):"
        }
        return "\(location.line):\(location.column):"
    }

    /// The widest stretch of a source line shown; longer lines are cut around the caret.
    private static let maximumLineWidth = 120

    private static func snippet(at location: SourceLocation) -> [String] {
        guard let source = location.source else { return [] }
        // Only the part of a long line around the caret is read: a window holding at least the
        // widest stretch shown on either side (a code point takes at most 4 bytes), cut at code
        // point boundaries. The cut below then marks what the window left out.
        let bytes = source.bytes
        let offset = max(0, min(location.offset, bytes.count))
        let reach = 4 * maximumLineWidth
        var lineStart = offset
        while lineStart > 0, offset - lineStart <= reach, bytes[lineStart - 1] != 0x0A, bytes[lineStart - 1] != 0x0D {
            lineStart -= 1
        }
        var windowStart = lineStart
        while offset - windowStart > reach || (windowStart < offset && bytes[windowStart] & 0xC0 == 0x80) {
            windowStart += 1
        }
        var windowEnd = offset
        while windowEnd < bytes.count, windowEnd - offset < reach || bytes[windowEnd] & 0xC0 == 0x80,
              bytes[windowEnd] != 0x0A, bytes[windowEnd] != 0x0D {
            windowEnd += 1
        }
        let atLineStart = windowStart == lineStart
            && (lineStart == 0 || bytes[lineStart - 1] == 0x0A || bytes[lineStart - 1] == 0x0D)
        // Code points of the window, with control characters made visible so the terminal is safe.
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(min(windowEnd - windowStart, 4 * maximumLineWidth))
        for scalar in source.text(in: SourceRange(start: windowStart, end: windowEnd)).unicodeScalars {
            scalars.append(visible(scalar))
        }
        let column = atLineStart
            ? location.column - 1
            : source.text(in: SourceRange(start: windowStart, end: offset)).unicodeScalars.count
        var caretIndex = max(0, min(column, scalars.count))
        var prefix = ""
        var suffix = ""
        if scalars.count > maximumLineWidth {
            let start = max(0, min(caretIndex - maximumLineWidth / 2, scalars.count - maximumLineWidth))
            let end = min(scalars.count, start + maximumLineWidth)
            if start > 0 { prefix = "…" }
            if end < scalars.count { suffix = "…" }
            scalars = Array(scalars[start..<end])
            caretIndex = caretIndex - start + (prefix.isEmpty ? 0 : 1)
        }
        var line = prefix
        line.unicodeScalars.append(contentsOf: scalars)
        line += suffix
        let shown = Array(line.unicodeScalars)
        var caret = ""
        for index in 0..<min(caretIndex, shown.count) {
            caret.append(shown[index] == "\t" ? "\t" : " ")
        }
        caret.append("^")
        return [line, caret]
    }

    private static func visible(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x09: scalar
        case 0x00..<0x20: Unicode.Scalar(0x2400 + scalar.value) ?? "?"
        case 0x7F: "\u{2421}"
        default: scalar
        }
    }
}
