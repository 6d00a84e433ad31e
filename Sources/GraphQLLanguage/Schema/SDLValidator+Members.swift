extension SDLValidator {
    /// Which directives count as "at the same location" for `UniqueDirectivesPerLocationRule`: the
    /// schema definition and its extensions share one set, a type's definition and extensions share
    /// one, and every other node has its own.
    enum DirectiveBucket {
        case schema
        case type(String)
        case node
    }

    mutating func checkTypeBody(_ body: TypeBody, typeName: String, document: Int) {
        checkDirectives(body.directives, at: body.kind.directiveLocation, bucket: .type(typeName), document: document)
        body.interfaces.forEach { checkNamedType($0, document: document) }
        for field in body.fields {
            checkFieldName(field.name, typeName: typeName, document: document)
            checkArgumentDefinitions(field.arguments, parent: "\(typeName).\(field.name.value)", document: document)
            checkNamedType(field.type.namedType, document: document)
            checkDirectives(field.directives, at: "FIELD_DEFINITION", bucket: .node, document: document)
        }
        body.members.forEach { checkNamedType($0, document: document) }
        for value in body.values {
            let place: Place = (document, value.name.range.start)
            if let first = enumValuePlaces[typeName]?[value.name.value] {
                report("Enum value \"\(typeName).\(value.name.value)\" can only be defined once.", [first, place],
                       rule: "UniqueEnumValueNamesRule")
            } else {
                enumValuePlaces[typeName, default: [:]][value.name.value] = place
            }
            checkDirectives(value.directives, at: "ENUM_VALUE", bucket: .node, document: document)
        }
        for field in body.inputFields {
            checkFieldName(field.name, typeName: typeName, document: document)
            checkNamedType(field.type.namedType, document: document)
            if let value = field.defaultValue { checkValue(value, document: document) }
            checkDirectives(field.directives, at: "INPUT_FIELD_DEFINITION", bucket: .node, document: document)
        }
    }

    private mutating func checkFieldName(_ name: Name, typeName: String, document: Int) {
        let place: Place = (document, name.range.start)
        if let first = fieldNamePlaces[typeName]?[name.value] {
            report("Field \"\(typeName).\(name.value)\" can only be defined once.", [first, place],
                   rule: "UniqueFieldDefinitionNamesRule")
        } else {
            fieldNamePlaces[typeName, default: [:]][name.value] = place
        }
    }

    mutating func checkArgumentDefinitions(_ arguments: [InputValueDefinition], parent: String, document: Int) {
        for (name, group) in Self.grouped(arguments.map(\.name)) where group.count > 1 {
            report("Argument \"\(parent)(\(name):)\" can only be defined once.",
                   group.map { (document, $0.range.start) }, rule: "UniqueArgumentDefinitionNamesRule")
        }
        for argument in arguments {
            checkNamedType(argument.type.namedType, document: document)
            if let value = argument.defaultValue { checkValue(value, document: document) }
            checkDirectives(argument.directives, at: "ARGUMENT_DEFINITION", bucket: .node, document: document)
        }
    }

    /// Names grouped by value, groups in order of first appearance.
    static func grouped(_ names: [Name]) -> [(String, [Name])] {
        var order: [String] = []
        var groups: [String: [Name]] = [:]
        for name in names {
            if groups[name.value] == nil { order.append(name.value) }
            groups[name.value, default: []].append(name)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }

    mutating func checkNamedType(_ named: NamedType, document: Int) {
        let name = named.name.value
        guard definedTypeKinds[name] == nil, !IntrospectionTypes.standardTypeNames.contains(name) else { return }
        let suggestions = Suggestions.list(name, IntrospectionTypes.standardTypeNames + definedTypeNames)
        report("Unknown type \"\(name)\"." + Suggestions.didYouMean(suggestions), [(document, named.range.start)],
               rule: "KnownTypeNamesRule", fatal: true)
    }

    mutating func checkDirectives(
        _ directives: [Directive], at location: String, bucket: DirectiveBucket, document: Int
    ) {
        var nodeSeen: [String: Place] = [:]
        for directive in directives {
            let name = directive.name.value
            let place: Place = (document, directive.range.start)
            guard let known = knownDirectives[name] else {
                report("Unknown directive \"@\(name)\".", [place], rule: "KnownDirectivesRule")
                checkArguments(directive, document: document)
                continue
            }
            if !known.locations.contains(location) {
                report("Directive \"@\(name)\" may not be used on \(location).", [place], rule: "KnownDirectivesRule")
            }
            if !known.repeatable {
                var seen: Place?
                switch bucket {
                case .schema: seen = schemaDirectivesSeen[name]
                case .type(let typeName): seen = typeDirectivesSeen[typeName]?[name]
                case .node: seen = nodeSeen[name]
                }
                if let seen {
                    report("The directive \"@\(name)\" can only be used once at this location.", [seen, place],
                           rule: "UniqueDirectivesPerLocationRule")
                } else {
                    switch bucket {
                    case .schema: schemaDirectivesSeen[name] = place
                    case .type(let typeName): typeDirectivesSeen[typeName, default: [:]][name] = place
                    case .node: nodeSeen[name] = place
                    }
                }
            }
            for argument in directive.arguments where !known.arguments.contains(argument.name.value) {
                let suggestions = Suggestions.list(argument.name.value, known.arguments)
                report("Unknown argument \"\(argument.name.value)\" on directive \"@\(name)\"."
                       + Suggestions.didYouMean(suggestions), [(document, argument.range.start)],
                       rule: "KnownArgumentNamesOnDirectivesRule")
            }
            checkArguments(directive, document: document)
            for required in known.requiredArguments
            where !directive.arguments.contains(where: { $0.name.value == required.name }) {
                report("Directive \"@\(name)\" argument \"\(required.name)\" of type \"\(required.type)\" is required, "
                       + "but it was not provided.", [place], rule: "ProvidedRequiredArgumentsOnDirectivesRule")
            }
        }
    }

    private mutating func checkArguments(_ directive: Directive, document: Int) {
        for (name, group) in Self.grouped(directive.arguments.map(\.name)) where group.count > 1 {
            report("There can be only one argument named \"\(name)\".", group.map { (document, $0.range.start) },
                   rule: "UniqueArgumentNamesRule")
        }
        for argument in directive.arguments { checkValue(argument.value, document: document) }
    }

    /// `UniqueInputFieldNamesRule` over a value and the values nested in it (an explicit stack, so
    /// nesting depth costs no call stack).
    mutating func checkValue(_ value: Value, document: Int) {
        var pending = [value]
        while let current = pending.popLast() {
            switch current {
            case .list(let list): pending.append(contentsOf: list.values.reversed())
            case .object(let object):
                var seen: [String: Place] = [:]
                for field in object.fields {
                    let place: Place = (document, field.name.range.start)
                    if let first = seen[field.name.value] {
                        report("There can be only one input field named \"\(field.name.value)\".", [first, place],
                               rule: "UniqueInputFieldNamesRule")
                    } else {
                        seen[field.name.value] = place
                    }
                }
                pending.append(contentsOf: object.fields.map(\.value).reversed())
            default: break
            }
        }
    }
}

/// The parts of a type definition or extension that SDL rules look at.
struct TypeBody {
    var kind: Schema.TypeKind
    var directives: [Directive]
    var interfaces: [NamedType] = []
    var fields: [FieldDefinition] = []
    var members: [NamedType] = []
    var values: [EnumValueDefinition] = []
    var inputFields: [InputValueDefinition] = []

    init(_ node: TypeDefinition) {
        directives = node.directives
        switch node {
        case .scalar: kind = .scalar
        case .object(let object): kind = .object; interfaces = object.interfaces; fields = object.fields
        case .interface(let interface): kind = .interface; interfaces = interface.interfaces; fields = interface.fields
        case .union(let union): kind = .union; members = union.types
        case .enum(let enumType): kind = .enum; values = enumType.values
        case .inputObject(let input): kind = .inputObject; inputFields = input.fields
        }
    }

    init(_ node: TypeExtension) {
        directives = node.directives
        switch node {
        case .scalar: kind = .scalar
        case .object(let object): kind = .object; interfaces = object.interfaces; fields = object.fields
        case .interface(let interface): kind = .interface; interfaces = interface.interfaces; fields = interface.fields
        case .union(let union): kind = .union; members = union.types
        case .enum(let enumType): kind = .enum; values = enumType.values
        case .inputObject(let input): kind = .inputObject; inputFields = input.fields
        }
    }
}

extension Schema.TypeKind {
    /// The directive location of a type definition of this kind.
    var directiveLocation: String {
        switch self {
        case .scalar: "SCALAR"
        case .object: "OBJECT"
        case .interface: "INTERFACE"
        case .union: "UNION"
        case .enum: "ENUM"
        case .inputObject: "INPUT_OBJECT"
        }
    }
}

/// Prints a type as written in a document, such as `[ID!]!` (graphql-js `print` of a type node).
enum TypePrinter {
    static func print(_ reference: TypeReference) -> String {
        // Wrappers from the outside in: true for non-null, false for list.
        var wrappers: [Bool] = []
        var current = reference
        while true {
            switch current {
            case .nonNull(let node):
                wrappers.append(true)
                current = node.type
            case .list(let node):
                wrappers.append(false)
                current = node.type
            case .named(let node):
                var text = node.name.value
                for isNonNull in wrappers.reversed() {
                    text = isNonNull ? text + "!" : "[" + text + "]"
                }
                return text
            }
        }
    }
}
