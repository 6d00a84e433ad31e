extension PrettyWriter {
    /// Writes a description and the line break after it, as written (block or quoted).
    mutating func description(_ node: StringValue?) {
        guard let node else { return }
        if node.block { out.blockString(node.value) } else { out.quotedString(node.value) }
        out.lineBreak()
    }

    /// Writes ` {`, one item per line, `}`; nothing for no items (graphql-js's `block`).
    mutating func block<Item>(_ items: [Item], _ body: (inout PrettyWriter, Item) -> Void) {
        guard !items.isEmpty else { return }
        out.ascii(" {")
        out.indentation += 2
        for item in items {
            out.lineBreak()
            body(&self, item)
        }
        out.indentation -= 2
        out.lineBreak()
        out.byte(0x7D)
    }

    mutating func schema(_ node: SchemaDefinition) {
        description(node.description)
        out.ascii("schema")
        directives(node.directives)
        block(node.operationTypes) { $0.operationType($1) }
    }

    mutating func schemaExtension(_ node: SchemaExtension) {
        out.ascii("extend schema")
        directives(node.directives)
        block(node.operationTypes) { $0.operationType($1) }
    }

    mutating func operationType(_ node: OperationTypeDefinition) {
        out.text(node.operation.rawValue)
        out.ascii(": ")
        out.text(node.type.name.value)
    }

    mutating func typeDefinition(_ definition: TypeDefinition) {
        switch definition {
        case .scalar(let node):
            description(node.description)
            head("scalar", node.name, node.directives)
        case .object(let node):
            description(node.description)
            head("type", node.name, interfaces: node.interfaces, node.directives)
            block(node.fields) { $0.fieldDefinition($1) }
        case .interface(let node):
            description(node.description)
            head("interface", node.name, interfaces: node.interfaces, node.directives)
            block(node.fields) { $0.fieldDefinition($1) }
        case .union(let node):
            description(node.description)
            head("union", node.name, node.directives)
            unionMembers(node.types)
        case .enum(let node):
            description(node.description)
            head("enum", node.name, node.directives)
            block(node.values) { $0.enumValue($1) }
        case .inputObject(let node):
            description(node.description)
            head("input", node.name, node.directives)
            block(node.fields) { $0.inputValue($1) }
        }
    }

    mutating func typeExtension(_ definition: TypeExtension) {
        switch definition {
        case .scalar(let node):
            head("extend scalar", node.name, node.directives)
        case .object(let node):
            head("extend type", node.name, interfaces: node.interfaces, node.directives)
            block(node.fields) { $0.fieldDefinition($1) }
        case .interface(let node):
            head("extend interface", node.name, interfaces: node.interfaces, node.directives)
            block(node.fields) { $0.fieldDefinition($1) }
        case .union(let node):
            head("extend union", node.name, node.directives)
            unionMembers(node.types)
        case .enum(let node):
            head("extend enum", node.name, node.directives)
            block(node.values) { $0.enumValue($1) }
        case .inputObject(let node):
            head("extend input", node.name, node.directives)
            block(node.fields) { $0.inputValue($1) }
        }
    }

    /// Writes `keyword Name implements A & B @directives`.
    private mutating func head(
        _ keyword: StaticString, _ name: Name, interfaces: [NamedType] = [], _ directives: [Directive]
    ) {
        out.ascii(keyword)
        out.byte(0x20)
        out.text(name.value)
        if !interfaces.isEmpty {
            out.ascii(" implements ")
            for (index, interface) in interfaces.enumerated() {
                if index > 0 { out.ascii(" & ") }
                out.text(interface.name.value)
            }
        }
        self.directives(directives)
    }

    /// Writes ` = A | B`, or nothing for no members.
    private mutating func unionMembers(_ types: [NamedType]) {
        guard !types.isEmpty else { return }
        out.ascii(" = ")
        for (index, member) in types.enumerated() {
            if index > 0 { out.ascii(" | ") }
            out.text(member.name.value)
        }
    }

    mutating func fieldDefinition(_ node: FieldDefinition) {
        description(node.description)
        out.text(node.name.value)
        argumentDefinitions(node.arguments)
        out.ascii(": ")
        type(node.type)
        directives(node.directives)
    }

    mutating func inputValue(_ node: InputValueDefinition) {
        description(node.description)
        out.text(node.name.value)
        out.ascii(": ")
        type(node.type)
        if let defaultValue = node.defaultValue {
            out.ascii(" = ")
            value(defaultValue)
        }
        directives(node.directives)
    }

    mutating func enumValue(_ node: EnumValueDefinition) {
        description(node.description)
        out.text(node.name.value)
        directives(node.directives)
    }

    mutating func directiveDefinition(_ node: DirectiveDefinition) {
        description(node.description)
        out.ascii("directive @")
        out.text(node.name.value)
        argumentDefinitions(node.arguments)
        if node.repeatable { out.ascii(" repeatable") }
        out.ascii(" on ")
        for (index, location) in node.locations.enumerated() {
            if index > 0 { out.ascii(" | ") }
            out.text(location.value)
        }
    }

    /// Writes `(a: Int, b: String)`, or one argument per line when any of them spans several lines
    /// (graphql-js's `hasMultilineItems`); nothing for no arguments.
    mutating func argumentDefinitions(_ arguments: [InputValueDefinition]) {
        guard !arguments.isEmpty else { return }
        if !arguments.contains(where: { $0.description != nil }) {
            let mark = out.count
            let breaks = out.lineBreaks
            out.byte(0x28)
            for (index, argument) in arguments.enumerated() {
                if index > 0 { out.ascii(", ") }
                inputValue(argument)
            }
            out.byte(0x29)
            if out.lineBreaks == breaks { return }
            out.truncate(to: mark, lineBreaks: breaks)
        }
        out.byte(0x28)
        out.indentation += 2
        for argument in arguments {
            out.lineBreak()
            inputValue(argument)
        }
        out.indentation -= 2
        out.lineBreak()
        out.byte(0x29)
    }
}
