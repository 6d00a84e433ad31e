import Foundation
import GatewayTestSupport
import GraphQLLanguage
import Testing
@testable import GatewayCLI

/// `gateway bench` through the dispatcher: the output forms and exit codes, not the speed.
/// Benchmarks compute without pause: on the CPU lane.
@Suite(.offPool) struct BenchCommandTests {
    let files: GraphQLFilesFixture
    static let operation = "query Q($id: ID!) { node(id: $id) { ...F } } fragment F on Node { id }"

    init() throws {
        files = try GraphQLFilesFixture()
        try files.write("op.graphql", Self.operation)
        try files.write("bad.graphql", "query {")
    }

    private func run(_ arguments: String...) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(arguments, output: sink.output(currentDirectory: files.directory))
        return (status, sink)
    }

    @Test func benchParsePrintsOneLineWithTheMedianAndThroughput() async throws {
        let (status, sink) = await run("bench", "parse", "op.graphql", "--time", "0.02")
        #expect(status == 0)
        let lines = sink.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("parse op.graphql: median ") == true)
        #expect(lines.first?.contains(" MB/s (\(Self.operation.utf8.count) bytes)") == true)
    }

    @Test func benchJSONPrintsOneObjectPerResult() async throws {
        let (status, sink) = await run(
            "bench", "normalize", "--json", "op.graphql", "op.graphql", "--operation", "Q", "--time", "0.02")
        #expect(status == 0)
        let lines = sink.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        for line in lines {
            let object = try JSONValue(parsing: line)
            #expect(object["benchmark"]?.stringValue == "normalize")
            #expect(object["input"]?.stringValue == "op.graphql")
            #expect(object["bytes"]?.intValue == Self.operation.utf8.count)
            #expect((object["runs"]?.intValue ?? 0) > 0)
            let median = try #require(object["median_us"]?.doubleValue)
            #expect(median > 0)
            #expect((object["p10_us"]?.doubleValue ?? .infinity) <= median)
            #expect((object["p90_us"]?.doubleValue ?? 0) >= median)
            #expect((object["mb_per_s"]?.doubleValue ?? 0) > 0)
        }
    }

    @Test func benchCPUClockIsMarkedInLinesAndJSON() async throws {
        let (status, sink) = await run("bench", "parse", "op.graphql", "--cpu", "--time", "0.02")
        #expect(status == 0)
        #expect(sink.stdout.hasPrefix("parse op.graphql: median CPU time "))
        let (jsonStatus, jsonSink) = await run("bench", "normalize", "--json", "--cpu", "op.graphql", "--time", "0.02")
        #expect(jsonStatus == 0)
        let object = try JSONValue(parsing: String(jsonSink.stdout.split(separator: "\n").first ?? ""))
        #expect(object["clock"]?.stringValue == "cpu")
        #expect((object["median_us"]?.doubleValue ?? 0) > 0)
    }

    @Test func benchNormalizeThroughTheSyntaxTreeMeasuresToo() async throws {
        let (status, sink) = await run("bench", "normalize", "--ast", "op.graphql", "--time", "0.02")
        #expect(status == 0)
        #expect(sink.stdout.hasPrefix("normalize op.graphql: median "))
        #expect(await run("bench", "normalize", "--ast", "bad.graphql").status == 1)
    }

    @Test func benchParseSchemaUsesTheSchemaLimits() async throws {
        let fields = (0..<16_000).map { "f\($0)" }.joined(separator: " ")
        try files.write("huge-query.graphql", "{ \(fields) }")
        #expect(await run("bench", "parse", "huge-query.graphql", "--time", "0.02").status == 1)
        let (status, sink) = await run("bench", "parse", "--schema", "huge-query.graphql", "--time", "0.02")
        #expect(status == 0)
        #expect(sink.stdout.hasPrefix("parse huge-query.graphql: median "))
    }

    @Test func benchRejectsBadCommandLinesAndInputs() async throws {
        #expect(await run("bench").status == 2)
        #expect(await run("bench", "frobnicate").status == 2)
        #expect(await run("bench", "parse").status == 2)
        #expect(await run("bench", "parse", "--operation", "Q", "op.graphql").status == 2)
        #expect(await run("bench", "parse", "op.graphql", "--time", "0").status == 2)
        #expect(await run("bench", "parse", "missing.graphql").status == 2)
        let (status, sink) = await run("bench", "parse", "bad.graphql", "--time", "0.02")
        #expect(status == 1)
        #expect(sink.stderr.contains("bad.graphql:1:8: error: Syntax Error"))
        #expect(await run("bench", "normalize", "bad.graphql").status == 1)
        try files.write("two.graphql", "query A { a } query B { b }")
        #expect(await run("bench", "normalize", "two.graphql", "--time", "0.02").status == 1)
    }

    @Test func benchAllPrintsOneJSONObjectPerLineForEveryBenchmark() async throws {
        let corpora = files.directory.appendingPathComponent("no-corpora").path
        let (status, sink) = await run(
            "bench", "all", "--json", "--time", "0.01", "--in-process", "--corpora", corpora)
        #expect(status == 0)
        #expect(sink.stderr.contains("no corpus folder"))
        let objects = try sink.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        let names = objects.compactMap { $0["benchmark"]?.stringValue }
        #expect(names.count == objects.count)
        #expect(Set(names) == ["cache", "launch", "pipeline", "overhead", "queue-memory"])
        for name in ["launch", "pipeline", "overhead", "queue-memory"] {
            #expect(names.filter { $0 == name }.count == 1, "one object for \(name)")
        }
    }

    @Test func benchAllRunsTheCorpusBenchmarksWhenTheCorporaArePresent() async throws {
        let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../shared/corpora").standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: corpora) else { return }
        let (status, sink) = await run("bench", "all", "--time", "0.01", "--in-process", "--corpora", corpora)
        #expect(status == 0)
        let prefixes = ["parse ", "normalize ", "validate ", "cache ", "launch:", "pipeline:", "overhead:", "queue-memory:"]
        for prefix in prefixes {
            #expect(sink.stdout.contains("\n" + prefix) || sink.stdout.hasPrefix(prefix), "\(prefix) missing")
        }
    }

    @Test func benchOverheadRunsRequestsInFlightWhenAsked() async throws {
        let (status, sink) = await run("bench", "overhead", "--json", "--requests", "200", "--in-flight", "8")
        #expect(status == 0)
        let object = try JSONValue(parsing: sink.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(object["benchmark"]?.stringValue == "overhead")
        #expect(object["in_flight"]?.intValue == 8)
        #expect(object["requests"]?.intValue == 200)
        #expect((object["cpu_us_per_request"]?.doubleValue ?? 0) > 0)
        let (text, textSink) = await run("bench", "overhead", "--requests", "100")
        #expect(text == 0)
        #expect(textSink.stdout.hasPrefix("overhead: "))
        #expect(!textSink.stdout.contains("in flight"))
        #expect(await run("bench", "overhead", "--in-flight", "x").status != 0)
        let (stages, stagesSink) = await run("bench", "overhead", "--requests", "100", "--all-stages")
        #expect(stages == 0)
        #expect(stagesSink.stdout.contains(", all stages on"))
        #expect(object["all_stages"]?.boolValue == false)
    }

    @Test func benchOverheadSharesIdenticalRequestsOnlyWhenAsked() async throws {
        let (shared, sharedSink) = await run(
            "bench", "overhead", "--json", "--requests", "100", "--all-stages", "--deduplicate")
        #expect(shared == 0)
        let object = try JSONValue(parsing: sharedSink.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(object["all_stages"]?.boolValue == true)
        #expect(object["deduplicates"]?.boolValue == true)
        let (text, textSink) = await run("bench", "overhead", "--requests", "100", "--all-stages", "--deduplicate")
        #expect(text == 0)
        #expect(textSink.stdout.contains(", all stages on, identical requests shared"))
        let (plain, plainSink) = await run("bench", "overhead", "--json", "--requests", "100", "--all-stages")
        #expect(plain == 0)
        let plainObject = try JSONValue(parsing: plainSink.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(plainObject["deduplicates"]?.boolValue == false)
    }

    @Test func benchPipelineJSONHasOneRowPerClientAndNumberInFlight() async throws {
        let (status, sink) = await run(
            "bench", "pipeline", "--json", "--in-process", "--requests", "10", "--runs", "1",
            "--clients", "bare,provider,providerDefault")
        #expect(status == 0)
        let lines = sink.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let object = try JSONValue(parsing: String(lines.first ?? ""))
        #expect(object["benchmark"]?.stringValue == "pipeline")
        let rows = try #require(object["rows"]?.arrayValue)
        let keys = rows.compactMap { row in
            row["client"]?.stringValue.flatMap { client in row["in_flight"]?.intValue.map { "\(client)@\($0)" } }
        }
        #expect(keys == ["bare@1", "provider@1", "providerDefault@1", "bare@64", "provider@64", "providerDefault@64"])
        for row in rows {
            #expect((row["requests_per_s"]?.doubleValue ?? 0) > 0)
            #expect((row["cpu_us_per_request"]?.doubleValue ?? -1) >= 0)
        }
        let caps = rows.map { $0["queue_cap"]?.intValue }
        #expect(caps == [nil, 1, 6, nil, 64, 6])
        #expect(rows.first?["vs_bare"]?.doubleValue == 1)
    }

    @Test func benchPipelineRejectsAnUnknownClient() async {
        let (status, sink) = await run("bench", "pipeline", "--clients", "bare,nonsense", "--in-process")
        #expect(status == 2)
        #expect(sink.stderr.contains("unknown client 'nonsense'"))
    }

    @Test func benchQueueMemoryReportsBytesPerQueuedRequest() async throws {
        let (status, sink) = await run("bench", "queue-memory", "--json", "--queued", "200")
        #expect(status == 0)
        let object = try JSONValue(parsing: String(sink.stdout.split(separator: "\n").first ?? ""))
        #expect(object["benchmark"]?.stringValue == "queue-memory")
        #expect(object["queued"]?.intValue == 200)
        #expect(object["provider_bytes_per_request"]?.doubleValue != nil)
        #expect(object["queue_bytes_per_waiter"]?.doubleValue != nil)
    }

    @Test func benchWatchMemoryReadsResidentMemoryAfterEachRound() async throws {
        let (status, sink) = await run("bench", "watch-memory", "--json", "--cycles", "50")
        #expect(status == 0)
        let object = try JSONValue(parsing: String(sink.stdout.split(separator: "\n").first ?? ""))
        #expect(object["benchmark"]?.stringValue == "watch-memory")
        #expect(object["cycles"]?.intValue == 50)
        #expect(object["resident_bytes"]?.arrayValue?.count == 3)
        #expect(object["growth_bytes_per_cycle"]?.arrayValue?.count == 2)
    }

    @Test func benchDownloadReportsThroughputAgainstCurlAndPeakMemory() async throws {
        let (status, sink) = await run("bench", "download", "--json", "--bytes", "2000000", "--runs", "1", "--in-process")
        #expect(status == 0, "\(sink.stderr)")
        let object = try JSONValue(parsing: String(sink.stdout.split(separator: "\n").first ?? ""))
        #expect(object["benchmark"]?.stringValue == "download")
        #expect(object["bytes"]?.intValue == 2_000_000)
        #expect((object["gateway_mb_per_s"]?.doubleValue ?? 0) > 0)
        #expect((object["curl_mb_per_s"]?.doubleValue ?? 0) > 0)
        #expect(object["peak_rss_growth_bytes"]?.intValue != nil)
        #expect(object["resumed_with_range"]?.stringValue?.hasPrefix("bytes=") == true)
        #expect(object["resumed_hash_matches"] == .bool(true))
    }

    @Test func benchHelpListsEveryBenchmark() async {
        let (status, sink) = await run("bench", "--help")
        #expect(status == 0)
        let names = ["parse", "normalize", "validate", "cache", "launch", "pipeline", "overhead", "queue-memory",
                     "watch-memory", "download", "all"]
        for name in names {
            #expect(sink.stdout.contains("gateway bench \(name) "), "\(name) missing from the help")
        }
    }
}
