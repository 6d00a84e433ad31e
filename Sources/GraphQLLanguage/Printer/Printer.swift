/// Prints documents in the canonical pretty form of graphql-js 16's `print`, byte for byte.
///
/// The layout follows graphql-js: definitions separated by one blank line; blocks (`{ ... }`) with
/// one item per line, indented by two spaces; descriptions on their own line above what they
/// describe, as block or quoted strings as written; a field's arguments on one line unless that
/// line (alias, name and arguments, without indentation) is longer than 80 characters, then one
/// argument per line; the arguments of a field or directive definition one per line when any of
/// them spans several lines; `implements A & B`, `= A | B`, `on A | B`; object values as
/// `{a: 1}`; the anonymous query without variables or directives as the `{ ... }` shorthand.
/// Block strings follow graphql-js's `printBlockString` and quoted strings its `printString`.
///
/// Printing never fails and never recurses on nesting: selection sets and values are walked with
/// explicit stacks, so a document built in code may be nested as deep as memory allows.
///
/// ```swift
/// let text = Printer.print(try Parser.parse(Source(fileText)))
/// ```
public enum Printer {
    /// Prints a document.
    /// - Parameter document: The document, executable or type-system or both.
    /// - Returns: The canonical text, without a trailing newline (the form graphql-js's `print`
    ///   returns; files conventionally add one).
    public static func print(_ document: Document) -> String {
        var writer = PrettyWriter(capacity: document.range.count + document.range.count / 8)
        writer.document(document)
        return writer.out.string
    }

    /// Prints a document as UTF-8 bytes.
    /// - Parameter document: The document.
    /// - Returns: The same text as ``print(_:)-(Document)``, as bytes.
    public static func printedBytes(_ document: Document) -> [UInt8] {
        var writer = PrettyWriter(capacity: document.range.count + document.range.count / 8)
        writer.document(document)
        return writer.out.bytes
    }

    /// Prints one definition as it would appear in a document.
    /// - Parameter definition: The definition.
    /// - Returns: Its canonical text.
    public static func print(_ definition: Definition) -> String {
        print(Document(definitions: [definition]))
    }

    /// Prints an operation followed by the fragments it uses, in pretty form.
    /// - Parameter selection: An operation picked out of a document with its fragments.
    /// - Returns: The operation, then each fragment in the order the document defines them.
    public static func print(_ selection: OperationSelection) -> String {
        print(selection.document)
    }

    /// Prints a value as graphql-js does, for example `{a: [1, 2], b: "x"}`.
    /// - Parameter value: The value.
    /// - Returns: Its text.
    public static func print(_ value: Value) -> String {
        var writer = PrettyWriter(capacity: 32)
        writer.value(value)
        return writer.out.string
    }

    /// Prints a type reference, for example `[ID!]!`.
    /// - Parameter type: The type reference.
    /// - Returns: Its text.
    public static func print(_ type: TypeReference) -> String {
        var writer = PrettyWriter(capacity: 16)
        writer.type(type)
        return writer.out.string
    }
}

/// Writes the pretty form described by ``Printer`` into one byte buffer.
struct PrettyWriter: ~Copyable {
    var out: TextBuffer
    var selectionStack: [SelectionFrame] = []
    var valueStack: [ValueFrame] = []

    init(capacity: Int) {
        out = TextBuffer(capacity: capacity)
    }

    // MARK: - Documents

    mutating func document(_ document: Document) {
        var wroteAny = false
        for definition in document.definitions {
            let mark = out.count
            let breaks = out.lineBreaks
            if wroteAny {
                out.lineBreak()
                out.lineBreak()
            }
            let start = out.count
            self.definition(definition)
            if out.count == start {
                // graphql-js's `join` skips definitions that print as nothing (only possible for
                // hand-built empty operations), separator included.
                out.truncate(to: mark, lineBreaks: breaks)
            } else {
                wroteAny = true
            }
        }
    }

    mutating func definition(_ definition: Definition) {
        switch definition {
        case .operation(let node): operation(node)
        case .fragment(let node): fragment(node)
        case .schema(let node): schema(node)
        case .schemaExtension(let node): schemaExtension(node)
        case .type(let node): typeDefinition(node)
        case .typeExtension(let node): typeExtension(node)
        case .directive(let node): directiveDefinition(node)
        }
    }

    mutating func operation(_ node: OperationDefinition) {
        if !node.isShorthand {
            out.text(node.operation.rawValue)
            if node.name != nil || !node.variableDefinitions.isEmpty { out.byte(0x20) }
            if let name = node.name { out.text(name.value) }
            if !node.variableDefinitions.isEmpty {
                out.byte(0x28)
                for (index, definition) in node.variableDefinitions.enumerated() {
                    if index > 0 { out.ascii(", ") }
                    variableDefinition(definition)
                }
                out.byte(0x29)
            }
            directives(node.directives)
            out.byte(0x20)
        }
        selectionSet(node.selectionSet)
    }

    mutating func variableDefinition(_ node: VariableDefinition) {
        out.byte(0x24)
        out.text(node.variable.name.value)
        out.ascii(": ")
        type(node.type)
        if let defaultValue = node.defaultValue {
            out.ascii(" = ")
            value(defaultValue)
        }
        directives(node.directives)
    }

    mutating func fragment(_ node: FragmentDefinition) {
        out.ascii("fragment ")
        out.text(node.name.value)
        out.ascii(" on ")
        out.text(node.typeCondition.name.value)
        out.byte(0x20)
        if !node.directives.isEmpty {
            for (index, directive) in node.directives.enumerated() {
                if index > 0 { out.byte(0x20) }
                self.directive(directive)
            }
            out.byte(0x20)
        }
        selectionSet(node.selectionSet)
    }

    // MARK: - Shared pieces

    /// Writes ` @a @b(x: 1)`: each directive preceded by a space.
    mutating func directives(_ list: [Directive]) {
        for directive in list {
            out.byte(0x20)
            self.directive(directive)
        }
    }

    mutating func directive(_ node: Directive) {
        out.byte(0x40)
        out.text(node.name.value)
        argumentList(node.arguments)
    }

    /// Writes `(a: 1, b: 2)`, or nothing for no arguments.
    mutating func argumentList(_ arguments: [Argument]) {
        guard !arguments.isEmpty else { return }
        out.byte(0x28)
        for (index, argument) in arguments.enumerated() {
            if index > 0 { out.ascii(", ") }
            out.text(argument.name.value)
            out.ascii(": ")
            value(argument.value)
        }
        out.byte(0x29)
    }

    /// Writes a type reference without recursion: the `[`s, the name, then `]`/`!` in reverse.
    mutating func type(_ reference: TypeReference) {
        var wrappers = 0
        var current = reference
        while true {
            switch current {
            case .named(let node):
                out.text(node.name.value)
                if wrappers == 0 { return }
                // Fill the closing characters from the end: the outermost wrapper closes last.
                let end = out.count + wrappers
                for _ in 0..<wrappers { out.byte(0) }
                var position = end - 1
                var walk = reference
                while true {
                    switch walk {
                    case .named: return
                    case .list(let list):
                        out[position] = 0x5D
                        walk = list.type
                    case .nonNull(let nonNull):
                        out[position] = 0x21
                        walk = nonNull.type
                    }
                    position -= 1
                }
            case .list(let node):
                out.byte(0x5B)
                wrappers += 1
                current = node.type
            case .nonNull(let node):
                wrappers += 1
                current = node.type
            }
        }
    }
}
