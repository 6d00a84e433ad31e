/// Builds Swift source text line by line, four spaces per level of indentation.
struct SwiftWriter {
    private(set) var text = ""
    fileprivate(set) var level = 0

    /// Adds one line at the current indentation; an empty line has no spaces.
    mutating func line(_ content: String = "") {
        if !content.isEmpty { text += String(repeating: "    ", count: level) + content }
        text += "\n"
    }

    /// Adds `opening`, the lines `body` writes one level deeper, and `closing`.
    mutating func block(_ opening: String, closing: String = "}", _ body: (inout SwiftWriter) -> Void) {
        line(opening)
        level += 1
        body(&self)
        level -= 1
        line(closing)
    }

    /// Adds `text` as `///` lines; nothing when it is `nil` or empty.
    mutating func documentation(_ text: String?) {
        guard let text, !text.isEmpty else { return }
        for part in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = part.hasSuffix("\r") ? part.dropLast() : part
            line(trimmed.isEmpty ? "///" : "/// " + trimmed.replacing("\t", with: "    "))
        }
    }

    /// Adds a multi-line string literal holding `text` exactly, after `prefix` (`text: `).
    mutating func multilineLiteral(_ prefix: String, _ text: String, suffix: String) {
        line(prefix + "\"\"\"")
        level += 1
        var content = text
        let endsWithNewline = content.hasSuffix("\n")
        if endsWithNewline { content.removeLast() }
        for part in content.split(separator: "\n", omittingEmptySubsequences: false) {
            line(Self.multilineEscaped(String(part)))
        }
        if endsWithNewline { line("") }
        line("\"\"\"" + suffix)
        level -= 1
    }

    /// Whether `text` reads well as a multi-line literal: no carriage returns or other control
    /// characters besides line feeds.
    static func fitsMultiline(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" } && !text.isEmpty
    }

    private static func multilineEscaped(_ line: String) -> String {
        var result = ""
        let scalars = Array(line.unicodeScalars)
        var trailing = scalars.count
        while trailing > 0, scalars[trailing - 1] == " " { trailing -= 1 }
        // Unescaped quotes just written: a third in a row would end the literal, so it is escaped.
        var quotes = 0
        for (index, scalar) in scalars.enumerated() {
            if scalar != "\"" { quotes = 0 }
            switch scalar {
            case "\\": result += "\\\\"
            case "\"":
                quotes += 1
                if quotes == 3 {
                    result += "\\\""
                    quotes = 0
                } else {
                    result += "\""
                }
            case " " where index >= trailing: result += "\\u{20}"
            default:
                if scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) || scalar.value == 0x2028
                    || scalar.value == 0x2029 {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}

extension SwiftWriter {
    /// Adds `head(parameters) {`, the body and `}`; the parameters go one per line when the
    /// signature would be longer than 110 columns.
    mutating func signature(_ head: String, _ parameters: [String], _ body: (inout SwiftWriter) -> Void) {
        let single = "\(head)(\(parameters.joined(separator: ", "))) {"
        if single.count + level * 4 <= 110 {
            block(single, body)
            return
        }
        line(head + "(")
        level += 1
        for (index, parameter) in parameters.enumerated() {
            line(parameter + (index == parameters.count - 1 ? "" : ","))
        }
        level -= 1
        block(") {", body)
    }
}
