/// Turning GraphQL names into Swift identifiers.
enum SwiftNames {
    /// Words that must be written in backticks to be used as a property or case name.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw",
        "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws",
        "true", "try", "Type", "Protocol",
    ]

    /// Names a generated type must not take: the Swift types and modules generated code refers to.
    static let reservedTypeNames: Set<String> = [
        "String", "Int", "Double", "Bool", "Data", "Optional", "Array", "Set", "Dictionary", "Error", "Never",
        "Decodable", "Encodable", "Codable", "Sendable", "Hashable", "Equatable", "RawRepresentable", "CodingKey",
        "CodingKeys", "Decoder", "Encoder", "Swift", "Gateway", "GraphQLLanguage", "Foundation", "Type", "Protocol",
        "Self", "Any", "AnyObject", "OperationType", "GraphQLOperationDefinition", "GraphQLQuery", "GraphQLMutation",
        "GraphQLSubscription", "GraphQLOperationType", "GraphQLUpload",
    ]

    /// `name`, in backticks when it is a keyword.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// The parameter for a stored property named `name` in a memberwise initializer: its
    /// declaration's label part and the name the body reads. `self` needs a separate inner name,
    /// since a parameter named `self` would hide the instance.
    static func parameter(_ name: String) -> (label: String, value: String) {
        name == "self" ? ("`self` self_", "self_") : (escaped(name), escaped(name))
    }

    /// `trackSummary` for `TrackSummary`: the first letter, or the leading run of capitals, lowered.
    static func lowerCamel(_ name: String) -> String {
        let characters = Array(name)
        var count = 0
        while count < characters.count, characters[count].isUppercase { count += 1 }
        if count > 1, count < characters.count { count -= 1 }
        return String(characters[..<count]).lowercased() + String(characters[count...])
    }

    /// `Track` for `track`.
    static func upperFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }

    /// `hipHop` for `HIP_HOP`, `rock` for `ROCK`; names with lower-case letters keep their
    /// spelling apart from the first letter.
    static func caseName(_ value: String) -> String {
        let hasLower = value.contains { $0.isLowercase }
        guard !hasLower else { return lowerCamel(value) }
        let leading = value.prefix { $0 == "_" }
        let words = value.dropFirst(leading.count).split(separator: "_", omittingEmptySubsequences: true)
        guard !words.isEmpty else { return value }
        var result = String(leading)
        for (index, word) in words.enumerated() {
            let lower = word.lowercased()
            result += index == 0 ? lower : upperFirst(lower)
        }
        return result
    }

    /// A type name made from a file's name, for an operation that has none: the name without its
    /// extension, cut into words at every character that is not an ASCII letter or digit, each
    /// word with its first letter upper-cased; words that start with a digit, which cannot start a
    /// Swift identifier, move from the front to the end. `BasicQuery01` for `01_basic_query.graphql`,
    /// `Anonymous` when no word starts with a letter.
    static func typeName(fromFile fileName: String) -> String {
        let stem = fileName.lastIndex(of: ".").map { String(fileName[..<$0]) } ?? fileName
        let words = stem.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
        let leading = words.prefix { $0.first?.isNumber == true }
        let rest = words.dropFirst(leading.count)
        guard !rest.isEmpty else { return "Anonymous" + leading.joined() }
        return (rest + leading).map(upperFirst).joined()
    }

    /// A type name for the items of a list field: `Artist` for `artists`, `Entry` for `entries`.
    static func singular(_ name: String) -> String {
        if name.hasSuffix("ies"), name.count > 3 { return String(name.dropLast(3)) + "y" }
        if name.hasSuffix("sses") || name.hasSuffix("xes") || name.hasSuffix("ches") || name.hasSuffix("shes") {
            return String(name.dropLast(2))
        }
        if name.hasSuffix("s"), !name.hasSuffix("ss"), !name.hasSuffix("us"), name.count > 1 {
            return String(name.dropLast())
        }
        return name
    }

    /// `name`, or `name2`, `name3`… — the first that `taken` does not hold; the result is added to it.
    static func unique(_ name: String, in taken: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            candidate = name + String(number)
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// A Swift string literal holding `text` exactly: `"…"` with escapes.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                    || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
