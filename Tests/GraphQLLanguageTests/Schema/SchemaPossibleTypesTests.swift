import GraphQLLanguage
import Testing

/// The object types a value of an abstract type can be.
@Suite struct SchemaPossibleTypesTests {
    @Test func unionsListTheirMembersAndInterfacesTheirObjectTypes() throws {
        let result = Schema.build(sources: [Source("""
            type Query { search: [Result!]!, node: Node }
            union Result = Track | Artist
            interface Node { id: ID! }
            interface Named implements Node { id: ID!, name: String! }
            type Track implements Node { id: ID!, title: String! }
            type Artist implements Node & Named { id: ID!, name: String! }
            enum Kind { A }
            """, name: "schema.graphql")])
        let schema = try #require(result.schema, "\(result.diagnostics)")
        func names(_ type: String) throws -> [String] {
            try schema.possibleTypes(of: #require(schema.type(named: type))).map(\.name)
        }
        #expect(try names("Result") == ["Track", "Artist"])
        #expect(try names("Node") == ["Track", "Artist"])
        #expect(try names("Named") == ["Artist"])
        #expect(try names("Track") == ["Track"])
        #expect(try names("Kind") == [])
    }
}
