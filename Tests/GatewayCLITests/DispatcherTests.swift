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
        #expect(try arguments.options("query") == ["a=1", "b=2"])
        #expect(arguments.flag("include"))
        #expect(try arguments.positionals() == ["GET", "--literal"])
        var leftover = Arguments(["--bogus", "x"])
        #expect(throws: UsageError.self) { try leftover.positionals() }
    }
}
