import GraphQLLanguage
import Testing

/// The parser reads every type-system definition and extension, with descriptions.
@Suite struct TypeSystemParserTests {
    @Test func miniKitchenSinkParsesIntoEveryKindOfDefinition() throws {
        let document = try Parser.parse(MiniKitchenSink.text, limits: .schemas)
        var kinds: [String] = []
        for definition in document.definitions {
            switch definition {
            case .operation(let operation): kinds.append(operation.operation.rawValue)
            case .fragment: kinds.append("fragment")
            case .schema: kinds.append("schema")
            case .schemaExtension: kinds.append("extend schema")
            case .directive: kinds.append("directive")
            case .type(let type): kinds.append("type \(type.name.value)")
            case .typeExtension(let type): kinds.append("extend \(type.name.value)")
            }
        }
        #expect(
            kinds == [
                "query", "mutation", "subscription", "query", "fragment", "schema", "extend schema", "type Date",
                "extend Date", "type Obj", "extend Obj", "type I", "extend I", "type U", "extend U", "type E",
                "extend E",
                "type In", "extend In", "directive",
            ]
        )
    }

    @Test func schemaDefinitionWithDescriptionDirectivesAndRootTypes() throws {
        let definition = try #require(
            try Parser.parse("\"\"\"\n  The schema.\n\"\"\"\nschema @a { query: Q mutation: M subscription: S }")
                .definitions.first
        )
        guard case .schema(let schema) = definition else {
            Issue.record("not a schema definition")
            return
        }
        #expect(schema.description?.value == "The schema.")
        #expect(schema.description?.block == true)
        #expect(schema.directives.map(\.name.value) == ["a"])
        #expect(schema.operationTypes.map(\.operation) == [.query, .mutation, .subscription])
        #expect(schema.operationTypes.map(\.type.name.value) == ["Q", "M", "S"])
    }

    @Test func objectTypeWithInterfacesFieldsArgumentsAndDefaults() throws {
        let type = try Self.firstType(
            #"""
            "An object" type Obj implements & A & B @key(fields: "id") {
              "A field" field("An argument" arg: [Int!]! = [1, 2] @a, other: String): String! @deprecated(reason: "no")
            }
            """#
        )
        guard case .object(let object) = type else {
            Issue.record("not an object type")
            return
        }
        #expect(object.description?.value == "An object" && object.description?.block == false)
        #expect(object.interfaces.map(\.name.value) == ["A", "B"])
        #expect(object.directives.map(\.name.value) == ["key"])
        let field = try #require(object.fields.first)
        #expect(field.description?.value == "A field")
        #expect(field.type.description == "String!")
        #expect(field.directives.map(\.name.value) == ["deprecated"])
        #expect(field.arguments.map(\.name.value) == ["arg", "other"])
        #expect(field.arguments[0].description?.value == "An argument")
        #expect(field.arguments[0].type.description == "[Int!]!")
        #expect(field.arguments[0].directives.map(\.name.value) == ["a"])
        guard case .list(let defaults) = field.arguments[0].defaultValue else {
            Issue.record("default is not a list")
            return
        }
        #expect(defaults.values.count == 2)
    }

    @Test func interfacesImplementInterfaces() throws {
        guard case .interface(let interface) = try Self.firstType("interface I implements J & K { f: Int }") else {
            Issue.record("not an interface")
            return
        }
        #expect(interface.interfaces.map(\.name.value) == ["J", "K"])
        #expect(interface.fields.map(\.name.value) == ["f"])
    }

    @Test func unionsEnumsInputsAndScalars() throws {
        let document = try Parser.parse(
            #"union U @u = | A | B enum E { "One" ONE @e TWO } "#
                + #"input In @oneOf { a: Int = 1, b: String } scalar S @specifiedBy(url: "u")"#
        )
        let types = document.definitions.compactMap { definition -> TypeDefinition? in
            if case .type(let type) = definition { return type }
            return nil
        }
        guard types.count == 4, case .union(let union) = types[0], case .enum(let enumType) = types[1],
            case .inputObject(let input) = types[2], case .scalar(let scalar) = types[3]
        else {
            Issue.record("unexpected types \(types)")
            return
        }
        #expect(union.types.map(\.name.value) == ["A", "B"] && union.directives.map(\.name.value) == ["u"])
        #expect(enumType.values.map(\.name.value) == ["ONE", "TWO"])
        #expect(enumType.values[0].description?.value == "One" && enumType.values[0].directives.count == 1)
        #expect(input.directives.map(\.name.value) == ["oneOf"])
        #expect(input.fields.map(\.name.value) == ["a", "b"])
        #expect(input.fields[0].defaultValue != nil && input.fields[1].defaultValue == nil)
        #expect(scalar.name.value == "S" && scalar.directives.map(\.name.value) == ["specifiedBy"])
    }

    @Test func directiveDefinitionsWithRepeatableAndLocations() throws {
        let document = try Parser.parse(
            "directive @a(x: Int = 0) repeatable on | FIELD | FRAGMENT_SPREAD directive @b on SCHEMA"
        )
        let directives = document.definitions.compactMap { definition -> DirectiveDefinition? in
            if case .directive(let directive) = definition { return directive }
            return nil
        }
        #expect(directives.map(\.name.value) == ["a", "b"])
        #expect(directives.map(\.repeatable) == [true, false])
        #expect(directives[0].locations.map(\.value) == ["FIELD", "FRAGMENT_SPREAD"])
        #expect(
            directives[0].locations.compactMap { DirectiveLocation(rawValue: $0.value) } == [.field, .fragmentSpread])
        #expect(directives[0].arguments.map(\.name.value) == ["x"])
    }

    @Test func everyKindOfExtension() throws {
        let document = try Parser.parse(
            """
            extend schema @a { query: Q }
            extend scalar S @b
            extend type T implements I @c { f: Int }
            extend interface I implements J
            extend union U = V
            extend enum E { F }
            extend input In @d
            """
        )
        guard document.definitions.count == 7, case .schemaExtension(let schema) = document.definitions[0] else {
            Issue.record("unexpected definitions")
            return
        }
        #expect(schema.directives.count == 1 && schema.operationTypes.count == 1)
        let extensions = document.definitions.dropFirst().compactMap { definition -> TypeExtension? in
            if case .typeExtension(let type) = definition { return type }
            return nil
        }
        #expect(extensions.map(\.name.value) == ["S", "T", "I", "U", "E", "In"])
        guard case .object(let object) = extensions[1], case .interface(let interface) = extensions[2],
            case .union(let union) = extensions[3], case .enum(let enumType) = extensions[4]
        else {
            Issue.record("unexpected extensions")
            return
        }
        #expect(object.interfaces.map(\.name.value) == ["I"] && object.fields.map(\.name.value) == ["f"])
        #expect(interface.interfaces.map(\.name.value) == ["J"])
        #expect(union.types.map(\.name.value) == ["V"])
        #expect(enumType.values.map(\.name.value) == ["F"])
    }

    @Test func descriptionRangesIncludeTheDescription() throws {
        let text = "\"Described\" scalar S"
        let document = try Parser.parse(text)
        let type = try Self.firstType(text)
        let source = try #require(document.source)
        #expect(source.text(in: type.range) == text)
        #expect(source.text(in: try #require(type.description).range) == "\"Described\"")
    }

    private static func firstType(_ text: String) throws -> TypeDefinition {
        let document = try Parser.parse(text, limits: .schemas)
        guard case .type(let type) = try #require(document.definitions.first) else {
            throw ParserTestFailure.notATypeDefinition
        }
        return type
    }

    enum ParserTestFailure: Error { case notATypeDefinition }
}
