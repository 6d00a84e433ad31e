/// Prints values the way graphql-js's `print` does, for error messages (`found {a: 1}`), and
/// compares values the way graphql-js compares printed, field-sorted values.
enum ValuePrinter {
    /// The value as graphql-js prints it: `[1, 2]`, `{a: "x"}`, `$var`, block strings as blocks.
    static func print(_ value: Value) -> String {
        var output = ""
        write(value, to: &output, depth: 0)
        return output
    }

    private static func write(_ value: Value, to output: inout String, depth: Int) {
        guard depth < 512 else {
            output += "…"
            return
        }
        switch value {
        case .variable(let variable): output += "$" + variable.name.value
        case .int(let int): output += int.value
        case .float(let float): output += float.value
        case .string(let string): output += string.block ? blockString(string.value) : quoted(string.value)
        case .boolean(let boolean): output += boolean.value ? "true" : "false"
        case .null: output += "null"
        case .enum(let enumValue): output += enumValue.value
        case .list(let list):
            output += "["
            for (index, item) in list.values.enumerated() {
                if index > 0 { output += ", " }
                write(item, to: &output, depth: depth + 1)
            }
            output += "]"
        case .object(let object):
            output += "{"
            for (index, field) in object.fields.enumerated() {
                if index > 0 { output += ", " }
                output += field.name.value + ": "
                write(field.value, to: &output, depth: depth + 1)
            }
            output += "}"
        }
    }

    /// graphql-js `printString`: a double-quoted string with its escapes.
    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: output += "\\\""
            case 0x5C: output += "\\\\"
            case 0x08: output += "\\b"
            case 0x0C: output += "\\f"
            case 0x0A: output += "\\n"
            case 0x0D: output += "\\r"
            case 0x09: output += "\\t"
            case 0x00...0x1F, 0x7F...0x9F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    /// graphql-js `printBlockString`.
    static func blockString(_ value: String) -> String {
        // Escape each `"""` as `\"""`.
        var escaped = ""
        var quotes = 0
        for character in value {
            if character == "\"" {
                quotes += 1
                if quotes == 3 {
                    escaped += "\\\"\"\""
                    quotes = 0
                }
            } else {
                escaped += String(repeating: "\"", count: quotes)
                quotes = 0
                escaped.append(character)
            }
        }
        escaped += String(repeating: "\"", count: quotes)
        let lines = escaped.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        let isSingleLine = lines.count == 1
        func isWhiteSpace(_ character: Character?) -> Bool { character == " " || character == "\t" }
        let forceLeadingNewLine = lines.count > 1
            && lines.dropFirst().allSatisfy { $0.isEmpty || isWhiteSpace($0.first) }
        let hasTrailingTripleQuotes = escaped.hasSuffix("\\\"\"\"")
        let hasTrailingQuote = value.hasSuffix("\"") && !hasTrailingTripleQuotes
        let hasTrailingSlash = value.hasSuffix("\\")
        let forceTrailingNewline = hasTrailingQuote || hasTrailingSlash
        let printAsMultipleLines = !isSingleLine || value.utf16.count > 70 || forceTrailingNewline
            || forceLeadingNewLine || hasTrailingTripleQuotes
        var result = ""
        let skipLeadingNewLine = isSingleLine && isWhiteSpace(value.first)
        if (printAsMultipleLines && !skipLeadingNewLine) || forceLeadingNewLine { result += "\n" }
        result += escaped
        if printAsMultipleLines || forceTrailingNewline { result += "\n" }
        return "\"\"\"" + result + "\"\"\""
    }

    /// Whether two values print the same once object fields are sorted by name (graphql-js
    /// compares `print(sortValueNode(value))`), decided without printing.
    static func same(_ first: Value, _ second: Value, depth: Int = 0) -> Bool {
        guard depth < 512 else { return false }
        switch (first, second) {
        case (.variable(let a), .variable(let b)): return a.name.value == b.name.value
        case (.int(let a), .int(let b)): return a.value == b.value
        case (.float(let a), .float(let b)): return a.value == b.value
        case (.string(let a), .string(let b)): return a.block == b.block && a.value == b.value
        case (.boolean(let a), .boolean(let b)): return a.value == b.value
        case (.null, .null): return true
        case (.enum(let a), .enum(let b)): return a.value == b.value
        case (.list(let a), .list(let b)):
            guard a.values.count == b.values.count else { return false }
            for index in a.values.indices where !same(a.values[index], b.values[index], depth: depth + 1) {
                return false
            }
            return true
        case (.object(let a), .object(let b)):
            guard a.fields.count == b.fields.count else { return false }
            let sortedA = sortedFields(a.fields)
            let sortedB = sortedFields(b.fields)
            for index in sortedA.indices {
                guard sortedA[index].name.value == sortedB[index].name.value,
                    same(sortedA[index].value, sortedB[index].value, depth: depth + 1)
                else { return false }
            }
            return true
        default:
            return false
        }
    }

    private static func sortedFields(_ fields: [ObjectField]) -> [ObjectField] {
        guard fields.count > 1 else { return fields }
        // Stable: fields of the same name keep their order, as with JavaScript's sort.
        return fields.indices.sorted { first, second in
            let order = Suggestions.naturalCompare(fields[first].name.value, fields[second].name.value)
            return order != 0 ? order < 0 : first < second
        }.map { fields[$0] }
    }
}
