import GraphQLLanguage

/// What the example backend's GraphQL executor knows of `Schemas/music.graphql`: each object
/// type's fields with their types and arguments, which interfaces each object type implements,
/// each union's members, each input object's fields (with their defaults) and each enum's values;
/// and a `Validator` that checks requests against the whole schema first.
package struct ExampleGraphQLSchema: Sendable {
    /// A field of an object or interface type.
    struct Field: Sendable {
        var type: TypeReference
        var arguments: [InputValueDefinition]
    }

    /// The schema could not be read or built.
    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Object and interface types → field name → field.
    private(set) var fields: [String: [String: Field]] = [:]
    /// Object type → the interfaces it implements.
    private(set) var interfaces: [String: Set<String>] = [:]
    /// Union → its member types.
    private(set) var unionMembers: [String: Set<String>] = [:]
    /// Input object → its fields in order.
    private(set) var inputFields: [String: [InputValueDefinition]] = [:]
    /// Enum → its values.
    private(set) var enumValues: [String: Set<String>] = [:]
    /// Scalars, the built-in ones included.
    private(set) var scalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
    /// The root type of each kind of operation.
    private(set) var roots: [OperationType: String] = [.query: "Query", .mutation: "Mutation"]
    /// Checks documents against the schema.
    let validator: Validator

    /// Reads the schema from SDL text.
    ///
    /// - Parameters:
    ///   - text: the SDL.
    ///   - name: the file it came from, for messages.
    /// - Throws: `LoadError` naming the first problem when the SDL does not parse or build.
    package init(sdl text: String, name: String) throws {
        let source = Source(text, name: name)
        let document: Document
        do {
            document = try Parser.parse(source, limits: .schemas)
        } catch {
            throw LoadError(description: error.diagnostic.rendered())
        }
        let built = Schema.build([document])
        guard let schema = built.schema, built.errors.isEmpty else {
            let first = built.errors.first.map { $0.rendered() } ?? "the schema could not be built"
            throw LoadError(description: first)
        }
        validator = Validator(schema: schema)
        for definition in document.definitions { add(definition) }
    }

    private mutating func add(_ definition: Definition) {
        switch definition {
        case .type(.object(let object)):
            fields[object.name.value] = Self.index(object.fields)
            interfaces[object.name.value] = Set(object.interfaces.map(\.name.value))
        case .type(.interface(let interface)):
            fields[interface.name.value] = Self.index(interface.fields)
        case .type(.union(let union)):
            unionMembers[union.name.value] = Set(union.types.map(\.name.value))
        case .type(.inputObject(let input)):
            inputFields[input.name.value] = input.fields
        case .type(.enum(let enumeration)):
            enumValues[enumeration.name.value] = Set(enumeration.values.map(\.name.value))
        case .type(.scalar(let scalar)):
            scalars.insert(scalar.name.value)
        case .schema(let schema):
            for root in schema.operationTypes { roots[root.operation] = root.type.name.value }
        case .operation, .fragment, .schemaExtension, .typeExtension, .directive:
            break
        }
    }

    private static func index(_ definitions: [FieldDefinition]) -> [String: Field] {
        var index: [String: Field] = [:]
        for definition in definitions {
            index[definition.name.value] = Field(type: definition.type, arguments: definition.arguments)
        }
        return index
    }

    /// The field `name` of the object or interface type `type`.
    func field(_ name: String, on type: String) -> Field? { fields[type]?[name] }

    /// Whether a fragment whose type condition is `condition` applies to an object of type `type`:
    /// the same type, an interface it implements, or a union it belongs to.
    func applies(_ condition: String, to type: String) -> Bool {
        condition == type || interfaces[type]?.contains(condition) == true
            || unionMembers[condition]?.contains(type) == true
    }

    /// Whether values of the named type are leaves (scalars and enums) rather than objects.
    func isLeaf(_ type: String) -> Bool { scalars.contains(type) || enumValues[type] != nil }
}
