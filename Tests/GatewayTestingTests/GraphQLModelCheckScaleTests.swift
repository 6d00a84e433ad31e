import Foundation
import Gateway
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing

/// How many responses a model check synthesizes, and how large they get, as selections grow.
@Suite(.offPool) struct GraphQLModelCheckScaleTests {
    static let sdl = """
        type Query { node: Node, tree: [[Tree]] }
        type Node { name: String, count: Int!, tags: [String!], kind: Kind!, next: Node, item: Item }
        enum Kind { A B C }
        union Item = Node | Leaf
        type Leaf { value: String }
        type Tree { name: String, children: [[Tree]] }
        """

    static func schema() throws -> Schema {
        let built = Schema.build(sources: [Source(sdl, name: "scale.graphql")])
        return try #require(built.schema, "\(built.diagnostics)")
    }

    /// `query Chain { node { … next { … } } }`, `depth` levels deep, each level selecting a nullable
    /// scalar, a non-null one, a list, an enum and a union.
    static func chain(depth: Int) -> String {
        let level = "name count tags kind item { __typename ... on Leaf { value } } "
        var text = ""
        for _ in 0..<depth { text = "\(level) next { \(text.isEmpty ? "name" : text) }" }
        return "query Chain { node { \(text) } }"
    }

    /// `query Deep { tree { children { children { … name } } } }`: lists of lists, `depth` deep.
    static func nestedLists(depth: Int) -> String {
        var text = "name"
        for _ in 0..<depth { text = "name children { \(text) }" }
        return "query Deep { tree { \(text) } }"
    }

    @Test func theNumberOfResponsesGrowsLinearlyWithTheSelection() throws {
        let schema = try Self.schema()
        let small = try GraphQLModelCheck(GraphQLOperation(Self.chain(depth: 10), schema: schema))
        let large = try GraphQLModelCheck(GraphQLOperation(Self.chain(depth: 20), schema: schema))
        // Each level adds the same changes: name, tags (null and empty), two more enum values,
        // next, item, the other object type of item, and Leaf.value.
        let ratio = Double(large.responseCount - 1) / Double(small.responseCount - 1)
        #expect(ratio > 1.8 && ratio < 2.2, "\(small.responseCount) → \(large.responseCount)")
        // Every combination would be more than 2^20 responses.
        #expect(large.responseCount < 20 * 12)
    }

    @Test func nestedListsStayTwoItemsWideOnlyNearTheTop() throws {
        let schema = try Self.schema()
        let small = try GraphQLModelCheck(GraphQLOperation(Self.nestedLists(depth: 15), schema: schema))
        let large = try GraphQLModelCheck(GraphQLOperation(Self.nestedLists(depth: 30), schema: schema))
        let ratio = Double(large.responseCount - 1) / Double(small.responseCount - 1)
        #expect(ratio > 1.8 && ratio < 2.2, "\(small.responseCount) → \(large.responseCount)")
        // Two items on every level would put 2^60 objects in the base response.
        let largest = large.responses.map { $0.data.serialized(.compact).utf8.count }.max() ?? 0
        #expect(largest < 20_000)
    }

    @Test func fragmentsThatMultiplyTheSelectionAreCutShortAndSaySo() throws {
        let schema = try Self.schema()
        var text = "query Wide { tree { ...F0 } }\n"
        // 3 × 2^12 fields once expanded: fewer than the validator's limit, more than a check lays out.
        for level in 0..<12 {
            let next = "F\(level + 1)"
            text += "fragment F\(level) on Tree { name a: children { ...\(next) } b: children { ...\(next) } }\n"
        }
        text += "fragment F12 on Tree { name }\n"
        let check = try GraphQLModelCheck(GraphQLOperation(text, schema: schema))
        let truncation = try #require(check.truncation)
        #expect(truncation.contains("more than 2000 fields"))
        #expect(check.responseCount < 10_000)
    }

    @Test func anEnumWithManyValuesIsCutShortAndSaysSo() throws {
        let values = (0..<3_000).map { "V\($0)" }.joined(separator: " ")
        let built = Schema.build(sources: [Source("""
            type Query { a: Many, b: Many, c: Many, d: Many }
            enum Many { \(values) }
            """, name: "many.graphql")])
        let schema = try #require(built.schema, "\(built.diagnostics)")
        let check = try GraphQLModelCheck(GraphQLOperation("{ a b c d }", schema: schema))
        #expect(check.responseCount == 10_000)
        #expect(check.truncation?.contains("more than 10000 responses") == true)
    }
}
