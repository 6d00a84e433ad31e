import Testing
@testable import GatewayCLI

@Suite struct DispatcherTests {
    @Test func unknownVerbIsAUsageError() async {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(["frobnicate"], output: sink.output())
        #expect(status == 2)
        #expect(sink.stderr.contains("unknown verb 'frobnicate'"))
    }

    @Test func helpListsTheVerbs() async {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(["--help"], output: sink.output())
        #expect(status == 0)
        #expect(sink.stdout.contains("Usage: gateway VERB"))
    }

    @Test func optionsAcceptBothSpellingsAndRejectLeftovers() throws {
        var arguments = Arguments(["--query", "a=1", "--query=b=2", "--include", "GET", "--", "--literal"])
        let queries = try arguments.options("query")
        let include = arguments.flag("include")
        let positionals = try arguments.positionals()
        #expect(queries == ["a=1", "b=2"])
        #expect(include)
        #expect(positionals == ["GET", "--literal"])
        var leftover = Arguments(["--bogus", "x"])
        #expect(throws: UsageError.self) { _ = try leftover.positionals() }
    }
}
