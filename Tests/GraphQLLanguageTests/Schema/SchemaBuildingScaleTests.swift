import GatewayTestSupport
import GraphQLLanguage
import Testing

/// Schema building stays near-linear in the number of fields, directives and extensions, and
/// lists at most 100 problems: the sizes here took from 11 to 78 seconds when each field was
/// looked for in the list of those before it.
@Suite(.offPool) struct SchemaBuildingScaleTests {
    func build(_ sdl: String) throws -> SchemaBuildResult {
        Schema.build([try Parser.parse(Source(sdl, name: "s.graphql"), limits: .schemas)])
    }

    @Test func twentyThousandDuplicateFieldsListTheFirstHundredAndFail() throws {
        let result = try build("type Query {" + String(repeating: " f: Int", count: 20_000) + " }")
        #expect(result.schema == nil)
        #expect(result.diagnostics.count == 101)
        #expect(result.diagnostics.first?.message == #"Field "Query.f" can only be defined once."#)
        #expect(result.diagnostics.first?.locations.map(\.column) == [14, 21])
        #expect(result.diagnostics.last?.message
            == "Too many schema problems: only the first 100 are shown. Fix those and check again.")
    }

    @Test func twentyThousandRepeatedDirectivesListTheFirstHundredAndFail() throws {
        let result = try build("type Query { f: Int" + String(repeating: " @deprecated", count: 20_000) + " }")
        #expect(result.schema == nil)
        #expect(result.diagnostics.count == 101)
        #expect(result.diagnostics.first?.rule == "UniqueDirectivesPerLocationRule")
    }

    @Test func twentyThousandExtensionsAddOneFieldEach() throws {
        var sdl = "type Query { a: Int }\n"
        for index in 0..<20_000 { sdl += "extend type Query { f\(index): Int }\n" }
        let schema = try #require(try build(sdl).schema)
        let query = try #require(schema.queryType)
        #expect(query.fields.count == 20_001)
        #expect(query.fields.last?.name == "f19999")
    }

    @Test func oneTypeWithNinetyThousandFieldsBuilds() throws {
        let fields = (0..<92_160).map { "f\($0): Int" }.joined(separator: " ")
        let result = try build("type Query { \(fields) }")
        let schema = try #require(result.schema)
        #expect(result.diagnostics.isEmpty)
        #expect(schema.queryType?.fields.count == 92_160)
    }

    /// graphql-js's field maps: a name given again keeps its first position and its last definition.
    @Test func aFieldDefinedAgainKeepsItsPlaceAndTakesTheLastDefinition() throws {
        let sdl = "type Query { a: Int b: Int a: String } extend type Query { b: Boolean c: Int }"
        let result = Schema.build([try Parser.parse(sdl)], options: .lenient)
        let query = try #require(result.schema?.queryType)
        #expect(query.fields.map(\.name) == ["a", "b", "c"])
        let schema = try #require(result.schema)
        #expect(query.fields.map { schema.name(of: $0.type) } == ["String", "Boolean", "Int"])
    }
}
