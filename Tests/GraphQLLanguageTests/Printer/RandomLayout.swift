import GraphQLLanguage

/// Writes an executable document again with everything the normalizer must ignore changed at
/// random: white space, line breaks, commas and comments between tokens; the order of arguments,
/// variable definitions, input object fields and definitions; quoted strings written as block
/// strings where that keeps the value; `query` before a shorthand; unused fragments added.
struct RandomLayout {
    var random: SeededGenerator
    private var text = ""
    /// The kind of the last token written, to know when two tokens need something between them.
    private var last = Kind.punctuator

    private enum Kind { case punctuator, word, string }

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    /// The document, relaid out.
    mutating func render(_ document: Document) -> String {
        text = ""
        last = .punctuator
        var definitions = document.definitions
        for index in 0..<Int.random(in: 0...2, using: &random) {
            definitions.append(.fragment(FragmentDefinition(
                name: Name("Unused\(index)"), typeCondition: NamedType(name: Name("T")),
                selectionSet: SelectionSet(selections: [.fragmentSpread(FragmentSpread(name: Name("F0")))]))))
        }
        definitions.shuffle(using: &random)
        for definition in definitions {
            switch definition {
            case .operation(let operation): self.operation(operation)
            case .fragment(let fragment): self.fragment(fragment)
            default: break
            }
        }
        separator()
        return text
    }

    private mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    private mutating func separator(required: Bool = false) {
        let choices = [" ", "\n", ",", "\t", " # a comment, with \"quotes\" {\n", "\r\n", "  ,\n  ", "\r"]
        if !required && chance(40) { return }
        text += choices[Int.random(in: 0..<choices.count, using: &random)]
    }

    private mutating func token(_ token: String, _ kind: Kind) {
        let needsSeparation = (last == .word && kind == .word) || (last == .string && kind == .string)
        separator(required: needsSeparation)
        text += token
        last = kind
    }

    private mutating func punctuator(_ token: String) { self.token(token, .punctuator) }
    private mutating func word(_ token: String) { self.token(token, .word) }

    private mutating func operation(_ node: OperationDefinition) {
        if !node.isShorthand || chance(50) {
            word(node.operation.rawValue)
            if let name = node.name { word(name.value) }
            if !node.variableDefinitions.isEmpty {
                punctuator("(")
                for definition in node.variableDefinitions.shuffled(using: &random) {
                    punctuator("$")
                    word(definition.variable.name.value)
                    punctuator(":")
                    type(definition.type)
                    if let value = definition.defaultValue {
                        punctuator("=")
                        self.value(value)
                    }
                    directives(definition.directives)
                }
                punctuator(")")
            }
            directives(node.directives)
        }
        selectionSet(node.selectionSet)
    }

    private mutating func fragment(_ node: FragmentDefinition) {
        word("fragment")
        word(node.name.value)
        word("on")
        word(node.typeCondition.name.value)
        directives(node.directives)
        selectionSet(node.selectionSet)
    }

    private mutating func selectionSet(_ set: SelectionSet) {
        punctuator("{")
        for selection in set.selections {
            switch selection {
            case .field(let field):
                if let alias = field.alias {
                    word(alias.value)
                    punctuator(":")
                }
                word(field.name.value)
                arguments(field.arguments)
                directives(field.directives)
                if let child = field.selectionSet { selectionSet(child) }
            case .fragmentSpread(let spread):
                punctuator("...")
                word(spread.name.value)
                directives(spread.directives)
            case .inlineFragment(let fragment):
                punctuator("...")
                if let condition = fragment.typeCondition {
                    word("on")
                    word(condition.name.value)
                }
                directives(fragment.directives)
                selectionSet(fragment.selectionSet)
            }
        }
        punctuator("}")
    }

    private mutating func directives(_ list: [Directive]) {
        for directive in list {
            punctuator("@")
            word(directive.name.value)
            arguments(directive.arguments)
        }
    }

    private mutating func arguments(_ list: [Argument]) {
        guard !list.isEmpty else { return }
        punctuator("(")
        for argument in list.shuffled(using: &random) {
            word(argument.name.value)
            punctuator(":")
            value(argument.value)
        }
        punctuator(")")
    }

    private mutating func type(_ reference: TypeReference) {
        switch reference {
        case .named(let node): word(node.name.value)
        case .list(let node):
            punctuator("[")
            type(node.type)
            punctuator("]")
        case .nonNull(let node):
            type(node.type)
            punctuator("!")
        }
    }

    private mutating func value(_ node: Value) {
        switch node {
        case .variable(let variable):
            punctuator("$")
            word(variable.name.value)
        case .int(let int): word(int.value)
        case .float(let float): word(float.value)
        case .string(let string):
            let block = DocumentGenerator.isPrintableAsBlockString(string.value) && chance(50)
            token(Printer.print(Value.string(StringValue(string.value, block: block))), .string)
        case .boolean(let boolean): word(boolean.value ? "true" : "false")
        case .null: word("null")
        case .enum(let value): word(value.value)
        case .list(let list):
            punctuator("[")
            for item in list.values { value(item) }
            punctuator("]")
        case .object(let object):
            punctuator("{")
            for field in object.fields.shuffled(using: &random) {
                word(field.name.value)
                punctuator(":")
                value(field.value)
            }
            punctuator("}")
        }
    }
}
