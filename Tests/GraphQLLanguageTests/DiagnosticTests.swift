import GraphQLLanguage
import Testing

@Suite struct DiagnosticTests {
    @Test func syntaxErrorRendersPathLineColumnSourceLineAndCaret() {
        do {
            _ = try Parser.parse(Source("query {\n  hero {\n    name?\n  }\n}", name: "Queries/Hero.graphql"))
            Issue.record("expected a syntax error")
        } catch {
            #expect(
                error.description == """
                    Queries/Hero.graphql:3:9: error: Syntax Error: Unexpected character: "?".
                        name?
                            ^
                    """
            )
        }
    }

    @Test func renderingNamesTheRuleAndRelatedLocations() {
        let source = Source("{ a }\n{ b }", name: "two.graphql")
        let diagnostic = Diagnostic(
            message: "This anonymous operation must be the only defined operation.",
            locations: [source.location(at: 0), source.location(at: 6)], rule: "LoneAnonymousOperationRule"
        )
        #expect(
            diagnostic.rendered() == """
                two.graphql:1:1: error: This anonymous operation must be the only defined operation. \
                [LoneAnonymousOperationRule]
                { a }
                ^
                two.graphql:2:1: note: related location
                { b }
                ^
                """
        )
    }

    @Test func caretFollowsTabsAndControlCharactersStayVisible() {
        let source = Source("\t\u{7}x", name: "t.graphql")
        let rendered = Diagnostic(message: "m", locations: [source.location(at: 2)], severity: .warning).rendered()
        #expect(rendered == "t.graphql:1:3: warning: m\n\t\u{2407}x\n\t ^")
    }

    @Test func longLinesAreCutAroundTheCaret() {
        let line = String(repeating: "a", count: 1_000) + "?" + String(repeating: "b", count: 1_000)
        let source = Source(line, name: "long.graphql")
        let rendered = Diagnostic(message: "m", locations: [source.location(at: 1_000)]).rendered()
        let lines = rendered.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3)
        #expect(lines[1].count <= 122)
        #expect(lines[1].hasPrefix("…") && lines[1].hasSuffix("…"))
        let caretColumn = lines[2].count - 1
        #expect(Array(lines[1])[caretColumn] == "?")
    }

    @Test func diagnosticWithoutLocationsRendersItsMessage() {
        #expect(Diagnostic(message: "too many errors").rendered() == "error: too many errors")
    }
}
