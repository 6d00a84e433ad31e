import GraphQLLanguage
import Testing

/// Building schemas from SDL and introspection results: every kind, extensions, directives,
/// descriptions, the built-ins, and the problems graphql-js reports, with their locations.
@Suite struct SchemaBuildingTests {
    func build(_ sdl: String..., options: Schema.BuildOptions = .strict) -> SchemaBuildResult {
        Schema.build(sources: sdl.enumerated().map { Source($0.element, name: "schema\($0.offset).graphql") },
                     options: options)
    }

    func messages(_ result: SchemaBuildResult) -> [String] {
        result.diagnostics.map { diagnostic in
            "\(diagnostic.locations.map { "\($0.line):\($0.column)" }.joined(separator: ",")) \(diagnostic.message)"
        }
    }

    @Test func everyKindExtensionsDescriptionsAndDirectivesAreBuilt() throws {
        let result = build("""
            "The root."
            schema { query: Root }
            "A moment." scalar Instant @specifiedBy(url: "https://example.com/instant")
            interface Node { id: ID! }
            type Root implements Node {
              id: ID!
              "Look one up."
              item(id: ID!, mode: Mode = FAST): Item @deprecated(reason: "Use items.")
              old: String @deprecated
            }
            type Item implements Node { id: ID! }
            union Result = Item
            enum Mode { FAST SLOW @deprecated }
            input Pick @oneOf { id: ID, name: String }
            directive @cost(weight: Int! = 1) repeatable on FIELD_DEFINITION | OBJECT | SCALAR
            """, """
            extend type Item { name: String }
            extend union Result = Root
            extend enum Mode { EXACT }
            extend input Pick { code: Int }
            extend scalar Instant @cost
            """)
        let schema = try #require(result.schema, "\(messages(result))")
        #expect(result.diagnostics.isEmpty)
        #expect(schema.description == "The root.")
        #expect(schema.queryType?.name == "Root")
        #expect(schema.mutationType == nil)
        let root = try #require(schema.type(named: "Root"))
        let item = try #require(root.field(named: "item"))
        #expect(item.description == "Look one up.")
        #expect(item.deprecationReason == "Use items.")
        #expect(root.field(named: "old")?.deprecationReason == "No longer supported")
        #expect(item.arguments.map(\.name) == ["id", "mode"])
        #expect(item.arguments[0].isRequired)
        #expect(!item.arguments[1].isRequired)
        #expect(schema.name(of: item.arguments[0].type) == "ID!")
        #expect(schema.type(named: "Item")?.fields.map(\.name) == ["id", "name"])
        #expect(schema.type(named: "Mode")?.enumValues.map(\.name) == ["FAST", "SLOW", "EXACT"])
        #expect(schema.type(named: "Mode")?.enumValue(named: "SLOW")?.isDeprecated == true)
        #expect(schema.type(named: "Pick")?.isOneOf == true)
        #expect(schema.type(named: "Pick")?.inputFields.map(\.name) == ["id", "name", "code"])
        #expect(schema.type(named: "Instant")?.specifiedByURL == "https://example.com/instant")
        #expect(schema.type(named: "Instant")?.description == "A moment.")
        let cost = try #require(schema.directive(named: "cost"))
        #expect(cost.isRepeatable)
        #expect(cost.allows(.fieldDefinition) && !cost.allows(.field))
        #expect(Set(schema.directives.map(\.name)) == ["cost", "include", "skip", "deprecated", "specifiedBy", "oneOf"])
        // Introspection types are part of every schema; unused built-in scalars are not.
        #expect(schema.type(named: "__Type")?.kind == .object)
        #expect(schema.type(named: "Float") == nil)
        #expect(schema.type(named: "Boolean") != nil)
    }

    @Test func sdlProblemsAreDiagnosticsWithLocationsAndRules() {
        let result = build("""
            type Query { a: Strin, b: Int }
            type Query { c: Int }
            extend type Missing { x: Int }
            type T { f(a: Int, a: Int): Int @unknown }
            enum E { A A }
            """)
        #expect(result.schema == nil)
        #expect(messages(result) == [
            #"1:17 Unknown type "Strin". Did you mean "String"?"#,
            #"1:6,2:6 There can be only one type named "Query"."#,
            #"3:13 Cannot extend type "Missing" because it is not defined."#,
            #"4:12,4:20 Argument "T.f(a:)" can only be defined once."#,
            #"4:33 Unknown directive "@unknown"."#,
            #"5:10,5:12 Enum value "E.A" can only be defined once."#,
        ])
        #expect(result.diagnostics.map(\.rule) == [
            "KnownTypeNamesRule", "UniqueTypeNamesRule", "PossibleTypeExtensionsRule",
            "UniqueArgumentDefinitionNamesRule", "KnownDirectivesRule", "UniqueEnumValueNamesRule",
        ])
    }

    @Test func badInterfaceImplementationsAreReported() {
        let result = build("""
            type Query { n: Named }
            interface Named { name: String!, id(full: Boolean): ID }
            interface Thing implements Named { name: String!, id(full: Boolean): ID }
            type A implements Thing { name: String }
            type B implements Named { name: String!, id(full: Int, extra: Int!): ID }
            """)
        #expect(result.schema == nil)
        // As graphql-core 3.2.8 (graphql-js 16) reports them.
        #expect(messages(result) == [
            "3:28,4:19 Type A must implement Named because it is implemented by Thing.",
            "3:42,4:33 Interface field Thing.name expects type String! but A.name is type String.",
            "3:51,4:1 Interface field Thing.id expected but A does not provide it.",
            "2:43,5:51 Interface field argument Named.id(full:) expects type Boolean but B.id(full:) is type Int.",
            "5:56,2:34 Object field B.id includes required argument extra that is missing from the Interface field "
                + "Named.id.",
        ])
    }

    @Test func lenientBuildingTurnsRecoverableProblemsIntoWarnings() throws {
        let sdl = """
            type Query { a: Int @cached, a: String }
            """
        let strict = build(sdl)
        #expect(strict.schema == nil)
        #expect(strict.errors.count == 2)
        let lenient = build(sdl, options: .lenient)
        let schema = try #require(lenient.schema)
        #expect(lenient.errors.isEmpty)
        #expect(lenient.warnings.map(\.message) == [
            #"Unknown directive "@cached"."#, #"Field "Query.a" can only be defined once."#,
        ])
        // The last definition wins, as in graphql-js.
        #expect(schema.queryType?.fields.map(\.name) == ["a"])
        #expect(schema.name(of: try #require(schema.queryType?.fields.first).type) == "String")
        // An unknown type leaves nothing to build, lenient or not.
        #expect(build("type Query { a: Nope }", options: .lenient).schema == nil)
    }

    @Test func severalFilesMakeOneSchema() throws {
        let schema = try #require(build("type Query { track: Track }", "type Track { id: ID! }").schema)
        #expect(schema.type(named: "Track")?.fields.map(\.name) == ["id"])
        let both = build("type Query { a: Int }", "type Query { b: Int }")
        #expect(both.errors.map(\.locations.first?.source?.name) == ["schema0.graphql"])
    }

    @Test(arguments: [true, false])
    func introspectionResultsBuildInEitherWrapping(wrapped: Bool) throws {
        let schemaJSON = """
            {"__schema": {
              "description": null,
              "queryType": {"name": "Query"}, "mutationType": null, "subscriptionType": null,
              "types": [
                {"kind": "OBJECT", "name": "Query", "interfaces": [], "fields": [
                  {"name": "pets", "args": [
                    {"name": "first", "type": {"kind": "SCALAR", "name": "Int"}, "defaultValue": "10"}
                  ], "type": {"kind": "NON_NULL", "ofType": {"kind": "LIST", "ofType":
                    {"kind": "NON_NULL", "ofType": {"kind": "UNION", "name": "Pet"}}}},
                   "isDeprecated": true, "deprecationReason": "Use animals."}]},
                {"kind": "UNION", "name": "Pet", "possibleTypes": [{"kind": "OBJECT", "name": "Dog"}]},
                {"kind": "OBJECT", "name": "Dog", "interfaces": [], "fields": [
                  {"name": "name", "args": [], "type": {"kind": "SCALAR", "name": "String"}, "isDeprecated": false}]},
                {"kind": "SCALAR", "name": "Int"}, {"kind": "SCALAR", "name": "String"},
                {"kind": "SCALAR", "name": "Float"},
                {"kind": "OBJECT", "name": "__Type", "fields": []}
              ],
              "directives": [{"name": "include", "locations": ["FIELD"], "args": [
                {"name": "if", "type": {"kind": "NON_NULL", "ofType": {"kind": "SCALAR", "name": "Boolean"}}}]}]
            }}
            """
        let text = wrapped ? #"{"data": "# + schemaJSON + "}" : schemaJSON
        let result = Schema.build(introspectionJSON: Array(text.utf8))
        let schema = try #require(result.schema, "\(messages(result))")
        let pets = try #require(schema.queryType?.field(named: "pets"))
        #expect(schema.name(of: pets.type) == "[Pet!]!")
        #expect(pets.deprecationReason == "Use animals.")
        #expect(pets.arguments.first?.defaultValue != nil)
        #expect(schema.directives.map(\.name) == ["include"])
        // Listed scalars stay in the type map even when nothing refers to them.
        #expect(schema.type(named: "Float") != nil)
        #expect(schema.type(named: "__Type")?.fields.isEmpty == false)
    }

    @Test func badIntrospectionResultsAreClearErrors() {
        let invalid = Schema.build(introspectionJSON: Array("{".utf8))
        #expect(invalid.errors.first?.message.hasPrefix("Invalid JSON") == true)
        #expect(Schema.build(introspectionJSON: Array(#"{"data": {}}"#.utf8)).errors.first?.message
            .contains("no \"__schema\" object") == true)
        let unknown = """
            {"__schema": {"queryType": {"name": "Query"}, "types": [
              {"kind": "OBJECT", "name": "Query", "fields": [
                {"name": "a", "args": [], "type": {"kind": "OBJECT", "name": "Gone"}}]}]}}
            """
        #expect(Schema.build(introspectionJSON: Array(unknown.utf8)).errors.map(\.message) == [
            "Invalid or incomplete schema, unknown type: Gone. Ensure that a full introspection query is used in "
                + "order to build a client schema.",
        ])
    }
}
