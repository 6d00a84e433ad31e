import GatewayTestSupport
import GraphQLLanguage
import Testing

/// Validation stays bounded on documents written to make it slow or to make it crash.
@Suite(.offPool) struct HostileDocumentTests {
    static let schema: Schema = {
        let sdl = """
            type Query { hello: String, me: Query, node(id: ID): Query, list: [Query] }
            """
        return Schema.build([(try? Parser.parse(sdl)) ?? Document(definitions: [])]).schema!
    }()

    func validate(_ text: String, limits: Validator.Limits = .standard) throws -> [Diagnostic] {
        Validator(schema: Self.schema, limits: limits).validate(try Parser.parse(text))
    }

    @Test func twoHundredFiftyRepeatedFieldsValidateInUnderFiftyMilliseconds() throws {
        let document = try Parser.parse("{ " + String(repeating: "hello ", count: 250) + "}")
        let validator = Validator(schema: Self.schema)
        _ = validator.validate(document)  // warm up
        var diagnostics: [Diagnostic] = []
        // The issue's 50 ms, timed on a run the system did not interrupt (see UndisturbedTiming).
        let elapsed = UndisturbedTiming.measure { diagnostics = validator.validate(document) }
        #expect(diagnostics.isEmpty)
        #expect(elapsed < .milliseconds(50))
    }

    @Test func repeatedFieldsWithConflictingArgumentsAreReportedPairwise() throws {
        let fields = (0..<60).map { "node(id: \($0 % 2)) { hello }" }.joined(separator: " ")
        let diagnostics = try validate("{ \(fields) }")
        #expect(!diagnostics.isEmpty)
        #expect(diagnostics.allSatisfy { $0.rule == "OverlappingFieldsCanBeMergedRule" || $0.rule == nil })
    }

    @Test func aConflictAfterManyFieldsIsFound() throws {
        let fields = (0..<40).map { "f\($0): hello" }.joined(separator: " ")
        let diagnostics = try validate("{ \(fields) f3: me { hello } f39: hello f0: list { hello } }")
        #expect(diagnostics.map(\.message) == [
            #"Fields "f0" conflict because "hello" and "list" are different fields. "#
                + "Use different aliases on the fields to fetch both if this was intentional.",
            #"Fields "f3" conflict because "hello" and "me" are different fields. "#
                + "Use different aliases on the fields to fetch both if this was intentional.",
        ])
    }

    /// graphql-js checks each selection set, an inline fragment's too, so a conflict inside an
    /// inline fragment is reported for it and again for the set around it.
    @Test func aConflictInsideAnInlineFragmentIsReportedForBothSets() throws {
        let diagnostics = try validate("{ hello ... on Query { hello: me { hello } } }")
        #expect(diagnostics.count == 1)
        let nested = try validate("{ me { hello ... on Query { x: hello x: list { hello } } } }")
        #expect(nested.count == 2)
        #expect(Set(nested.map(\.message)).count == 1)
    }

    @Test func fragmentCyclesTerminateWithOneErrorPerCycle() throws {
        let diagnostics = try validate("""
            query Q { ...A }
            fragment A on Query { ...B }
            fragment B on Query { ...A }
            """)
        let cycles = diagnostics.filter { $0.rule == "NoFragmentCyclesRule" }
        #expect(cycles.map(\.message) == [#"Cannot spread fragment "A" within itself via "B"."#])
        #expect(cycles.first?.locations.map(\.line) == [2, 3])
    }

    @Test func aThousandFragmentCycleTerminates() throws {
        let count = 1000
        var text = "query Q { ...F0 }\n"
        for index in 0..<count { text += "fragment F\(index) on Query { hello ...F\((index + 1) % count) }\n" }
        let diagnostics = try validate(text)
        #expect(diagnostics.filter { $0.rule == "NoFragmentCyclesRule" }.count == 1)
    }

    /// `F0` spreads `F1` twice, `F1` spreads `F2` twice, and so on: 2^30 fields once expanded.
    @Test(arguments: [false, true])
    func fragmentDoublingBombIsRejectedWithoutExpandingIt(nested: Bool) throws {
        var text = "query Bomb { ...F0 }\n"
        for level in 0..<30 {
            let next = "F\(level + 1)"
            text += nested
                ? "fragment F\(level) on Query { a: me { ...\(next) } b: me { ...\(next) } }\n"
                : "fragment F\(level) on Query { ...\(next) ...\(next) hello }\n"
        }
        text += "fragment F30 on Query { hello }\n"
        let clock = ContinuousClock()
        var diagnostics: [Diagnostic] = []
        let elapsed = try clock.measure { diagnostics = try validate(text) }
        #expect(diagnostics.map(\.rule) == ["SelectionLimitsRule"])
        #expect(diagnostics.first?.message
            == #"Operation "Bomb" selects more than 100000 fields once its fragments are expanded."#)
        #expect(elapsed < .seconds(2))
    }

    @Test func nestingDeeperThanTheLimitIsReportedNotWalked() throws {
        let depth = 1000
        let text = String(repeating: "{ me ", count: depth) + "{ hello }" + String(repeating: " }", count: depth)
        let document = try Parser.parse(Source(text), limits: Limits(
            maxBytes: 1 << 20, maxTokens: 100_000, maxIgnoredTokens: 100_000, maxDepth: 2 * depth
        ))
        let diagnostics = Validator(schema: Self.schema).validate(document)
        #expect(diagnostics.contains { $0.rule == "SelectionLimitsRule" })
    }

    @Test func deepFragmentChainsAreRejectedByTheDepthLimit() throws {
        var text = "query Q { ...F0 }\n"
        for index in 0..<300 { text += "fragment F\(index) on Query { me { ...F\(index + 1) } }\n" }
        text += "fragment F300 on Query { hello }\n"
        let diagnostics = try validate(text)
        #expect(diagnostics.map(\.message)
            == [#"Operation "Q" nests more than 128 levels deep once its fragments are expanded."#])
    }

    @Test func afterAHundredErrorsValidationStopsWithGraphQLJSsMessage() throws {
        let fields = (0..<150).map { "unknown\($0)" }.joined(separator: " ")
        let diagnostics = try validate("{ \(fields) }")
        #expect(diagnostics.count == 101)
        #expect(diagnostics.last?.message == "Too many validation errors, error limit reached. Validation aborted.")
        #expect(diagnostics.last?.locations.isEmpty == true)
        #expect(diagnostics.dropLast().allSatisfy { $0.rule == "FieldsOnCorrectTypeRule" })
    }
}
