/// Finding the definitions behind built types, for the locations of schema errors.
extension SchemaBuilder {
    typealias Place = (document: Int, offset: Int)

    /// The definition and extensions of a type that come from the documents.
    func typeNodes(_ index: Int) -> [Located<TypeNode>] {
        var nodes: [Located<TypeNode>] = []
        if let definition = definitionOfType[index], definition.document >= 0 {
            nodes.append(Located(node: TypeNode(definition.node), document: definition.document))
        }
        for located in extensionsOfType[index] where located.document >= 0 {
            nodes.append(Located(node: TypeNode(located.node), document: located.document))
        }
        return nodes
    }

    /// The starts of a type's definition and extensions.
    func typePlaces(_ index: Int) -> [Place] {
        typeNodes(index).map { ($0.document, $0.node.range.start) }
    }

    /// The definition of a field of an object, interface or input object type (the last one when
    /// it is defined twice, as that one is built). The fields of a type are indexed by name on
    /// first use.
    mutating func fieldNode(_ typeIndex: Int, _ name: String) -> Located<FieldDefinition>? {
        if let known = fieldNodesOfType[typeIndex] { return known[name] }
        var found: [String: Located<FieldDefinition>] = [:]
        for located in typeNodes(typeIndex) {
            for field in located.node.fields { found[field.name.value] = Located(node: field, document: located.document) }
        }
        fieldNodesOfType[typeIndex] = found
        return found[name]
    }

    mutating func inputFieldNode(_ typeIndex: Int, _ name: String) -> Located<InputValueDefinition>? {
        if let known = inputFieldNodesOfType[typeIndex] { return known[name] }
        var found: [String: Located<InputValueDefinition>] = [:]
        for located in typeNodes(typeIndex) {
            for field in located.node.inputFields {
                found[field.name.value] = Located(node: field, document: located.document)
            }
        }
        inputFieldNodesOfType[typeIndex] = found
        return found[name]
    }

    mutating func argumentNode(_ typeIndex: Int, _ fieldName: String, _ name: String)
        -> Located<InputValueDefinition>?
    {
        guard let field = fieldNode(typeIndex, fieldName) else { return nil }
        guard let argument = field.node.arguments.last(where: { $0.name.value == name }) else { return nil }
        return Located(node: argument, document: field.document)
    }

    /// Every place a type names `interfaceName` in its `implements` list.
    func implementsPlaces(_ typeIndex: Int, _ interfaceName: String) -> [Place] {
        var places: [Place] = []
        for located in typeNodes(typeIndex) {
            for named in located.node.interfaces where named.name.value == interfaceName {
                places.append((located.document, named.range.start))
            }
        }
        return places
    }

    /// Every place a union lists `memberName`.
    func memberPlaces(_ typeIndex: Int, _ memberName: String) -> [Place] {
        var places: [Place] = []
        for located in typeNodes(typeIndex) {
            for named in located.node.members where named.name.value == memberName {
                places.append((located.document, named.range.start))
            }
        }
        return places
    }

    /// The place of the `@deprecated` directive among `directives`, if any.
    func deprecatedPlace(_ directives: [Directive], document: Int) -> [Place] {
        directives.filter { $0.name.value == "deprecated" }.map { (document, $0.range.start) }
    }
}

/// A type definition or extension seen through the parts schema checks look at.
struct TypeNode {
    var range: SourceRange
    var fields: [FieldDefinition] = []
    var inputFields: [InputValueDefinition] = []
    var interfaces: [NamedType] = []
    var members: [NamedType] = []

    init(_ definition: TypeDefinition) {
        range = definition.range
        switch definition {
        case .scalar, .enum: break
        case .object(let node):
            fields = node.fields
            interfaces = node.interfaces
        case .interface(let node):
            fields = node.fields
            interfaces = node.interfaces
        case .union(let node): members = node.types
        case .inputObject(let node): inputFields = node.fields
        }
    }

    init(_ definition: TypeExtension) {
        range = definition.range
        switch definition {
        case .scalar, .enum: break
        case .object(let node):
            fields = node.fields
            interfaces = node.interfaces
        case .interface(let node):
            fields = node.fields
            interfaces = node.interfaces
        case .union(let node): members = node.types
        case .inputObject(let node): inputFields = node.fields
        }
    }
}
