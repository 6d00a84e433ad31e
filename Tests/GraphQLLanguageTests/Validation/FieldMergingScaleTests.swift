import GatewayTestSupport
import GraphQLLanguage
import Testing

/// Field merging stays near-linear when one response name is written thousands of times: the
/// sizes here took seconds and a gigabyte when every pair of fields was compared and kept.
@Suite(.offPool) struct FieldMergingScaleTests {
    static let schema: Schema = {
        let sdl = "type Query { hello: String x: Int f(a: Int): F } type F { x: Int }"
        return Schema.build([(try? Parser.parse(sdl)) ?? Document(definitions: [])]).schema!
    }()

    func validate(_ text: String) throws -> [Diagnostic] {
        Validator(schema: Self.schema).validate(try Parser.parse(text))
    }

    @Test func twoFieldsAlternatingUnderOneNameFiveThousandTimesReportTheFirstHundredConflicts() throws {
        let diagnostics = try validate("{" + String(repeating: "a:hello a:x ", count: 2482) + "}")
        #expect(diagnostics.count == 101)
        #expect(diagnostics.dropLast().allSatisfy {
            $0.message == #"Fields "a" conflict because "hello" and "x" are different fields. "#
                + "Use different aliases on the fields to fetch both if this was intentional."
        })
        #expect(diagnostics.first?.locations.map(\.column) == [2, 10])
        #expect(diagnostics.last?.message == "Too many validation errors, error limit reached. Validation aborted.")
    }

    @Test func sixteenHundredFieldsWithDifferentArgumentsReportTheFirstHundredConflicts() throws {
        let fields = (0..<1655).map { "f(a:\($0)){x}" }.joined(separator: " ")
        let diagnostics = try validate("{\(fields)}")
        #expect(diagnostics.count == 101)
        #expect(diagnostics.first?.message
            == #"Fields "f" conflict because they have differing arguments. "#
                + "Use different aliases on the fields to fetch both if this was intentional.")
        #expect(diagnostics.first?.locations.map(\.column) == [2, 12])
    }

    /// Twenty fields under one name, ten of each kind: graphql-js reports each of the 100 pairs of
    /// different fields, in pair order, and so does the class-by-class comparison.
    @Test func everyConflictingPairIsReportedInPairOrderWhenUnderTheLimit() throws {
        let diagnostics = try validate("{" + String(repeating: " a: hello a: x", count: 10) + " }")
        #expect(diagnostics.count == 100)
        #expect(diagnostics.prefix(3).map { $0.locations.map(\.column) } == [[3, 12], [3, 26], [3, 40]])
        #expect(diagnostics.allSatisfy { $0.rule == "OverlappingFieldsCanBeMergedRule" })
    }

    @Test func identicalFieldsWithSubSelectionsAreComparedAsOneClass() throws {
        let diagnostics = try validate("{" + String(repeating: " f(a: 1) { x }", count: 1000) + " }")
        #expect(diagnostics.isEmpty)
        let conflicting = try validate("{" + String(repeating: " f(a: 1) { x }", count: 500) + " f(a: 1) { x: hello } }")
        #expect(conflicting.count == 101)
        #expect(conflicting.first?.message.contains(#"subfields "x" conflict"#) == true)
    }

    /// With several files in one unit the error limit holds per file: a file with many errors
    /// hides none of another's, and its last line says where its errors stopped being listed.
    @Test func theErrorLimitHoldsPerDocumentOfAUnit() throws {
        let noisy = try Parser.parse(Source("query A {" + (0..<150).map { " u\($0)" }.joined() + " }", name: "a.graphql"))
        let quiet = try Parser.parse(Source("query B { hello unknown }", name: "b.graphql"))
        let diagnostics = Validator(schema: Self.schema).validate([noisy, quiet])
        let inA = diagnostics.filter { $0.locations.first?.source?.name == "a.graphql" }
        #expect(inA.count == 101)
        #expect(inA.last?.message
            == "Too many validation errors in this file, error limit reached; its other errors are not shown.")
        // At the first error left out: the field u100.
        #expect(inA.last?.locations.first?.column == ("query A {" + (0..<100).map { " u\($0)" }.joined()).count + 2)
        #expect(diagnostics.last?.message == #"Cannot query field "unknown" on type "Query"."#)
    }
}
