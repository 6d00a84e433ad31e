import GatewayTestSupport
import GraphQLLanguage
import Testing

/// `Parser.parse(_:limits:executableLimits:)`: a type-system definition in a document lifts no
/// bound on its operations and fragments.
@Suite(.offPool) struct ExecutableLimitsTests {
    func parse(_ text: String) throws(GraphQLSyntaxError) -> Document {
        try Parser.parse(Source(text, name: "mixed.graphql"), limits: .schemas, executableLimits: .operations)
    }

    /// The error parsing `text` throws, as plain values: an expectation on the error itself would
    /// describe the whole source it holds.
    func failure(_ text: String) -> (limit: Limits.Limit?, line: Int, column: Int, message: String)? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return (error.limit, error.location.line, error.location.column, error.message)
        }
    }

    @Test func anOperationNestedPastTheOperationDepthIsRefusedBesideAScalar() throws {
        let text = "scalar X\n" + String(repeating: "{a", count: 250) + String(repeating: "}", count: 250)
        let error = try #require(failure(text))
        #expect(error.limit == .depth)
        #expect(error.line == 2)
        #expect(error.column == 257)
        #expect(error.message.contains("nests deeper than 128 levels"))
    }

    @Test func typeDefinitionsKeepTheSchemaDepth() throws {
        let type = String(repeating: "[", count: 200) + "Int" + String(repeating: "]", count: 200)
        let document = try parse("type Query { f: \(type) }\n{ f }")
        #expect(document.definitions.count == 2)
    }

    @Test func twoHundredThousandAliasesAreRefusedAtTheOperationTokenLimit() throws {
        let aliases = (0..<200_000).map { "a\($0): f" }.joined(separator: " ")
        let error = try #require(failure("scalar X\n{ \(aliases) }"))
        #expect(error.limit == .tokens)
        #expect(error.message.contains("more than 15000 tokens"))
    }

    @Test func theTokensOfAllOperationsAddUp() throws {
        let half = "{" + String(repeating: " f", count: 7_000) + " }\n"
        _ = try parse("scalar X\n" + half)
        let error = try #require(failure("scalar X\n" + half + half + half))
        #expect(error.limit == .tokens)
    }

    @Test func tenMegabytesOfOperationsAreRefusedAfterTheFirstFifteenThousandTokens() throws {
        let text = String(repeating: "{f}", count: 10 << 20 / 3)
        let error = try #require(failure(text))
        #expect(error.limit == .tokens)
        #expect(error.column == 15_001)
    }

    @Test func aDocumentOfOperationsWithinTheLimitsParsesAsWithTheOperationProfile() throws {
        let text = "query Q($v: Int) { a(x: $v) { b ...F } }\nfragment F on T { c }"
        let document = try parse(text)
        #expect(document == (try Parser.parse(Source(text, name: "mixed.graphql"))))
    }
}
