/// `gateway bench NAME ...`: runs one of the registered benchmarks and prints its results.
public struct BenchCommand: Command {
    /// The benchmarks `gateway bench` knows; add new ones here, one file each.
    public static let benchmarks: [any Benchmark] = [
        ParseBenchmark(),
        NormalizeBenchmark(),
        ValidateBenchmark(),
        CodegenBenchmark(),
        DecodeBenchmark(),
        CacheBenchmark(),
        LaunchBenchmarkEntry(),
        PipelineBenchmarkEntry(),
        OverheadBenchmarkEntry(),
        QueueMemoryBenchmarkEntry(),
        WatchMemoryBenchmarkEntry(),
        DownloadBenchmarkEntry(),
        AllBenchmarks(),
        ServeBenchmarkEntry(),
        ServeDownloadBenchmarkEntry(),
    ]

    /// The benchmarks this command offers.
    public var benchmarks: [any Benchmark]

    /// Creates the command with the registered benchmarks, or others (for tests).
    public init(benchmarks: [any Benchmark] = BenchCommand.benchmarks) {
        self.benchmarks = benchmarks
    }

    /// The verb.
    public var name: String { "bench" }
    /// One line for `gateway --help`.
    public var summary: String { "Measure parsing, normalizing, the launch scenario, the pipeline and more" }
    /// The text of `gateway help VERB`: every flag and exit status.
    public var help: String {
        let width = benchmarks.map(\.name.count).max() ?? 0
        var lines = benchmarks.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
        lines.append("")
        for benchmark in benchmarks {
            lines.append("gateway bench \(benchmark.name) \(benchmark.usage)")
            for option in benchmark.options {
                let spelled = "--\(option.name)" + (option.takesValue ? " VALUE" : "")
                lines.append("    \(spelled.padding(toLength: 20, withPad: " ", startingAt: 0)) \(option.help)")
            }
        }
        return """
            Usage: gateway bench NAME [ARGUMENTS] [--json] [--time SECONDS] [--cpu]

            Runs a benchmark: a warm-up, then repeated runs for about --time seconds (default 1),
            in batches sized so each timed sample lasts about 5 ms. Prints one line per input with
            the median time per run in microseconds, the 10th and 90th percentiles, the number of
            runs and, where it means something, the throughput in MB/s (10^6 bytes per second).
            launch, pipeline, overhead, queue-memory and download print a report of their own
            instead, and all runs every benchmark but download (about 1.5 minutes). Measure a
            release build:
            swift build -c release --product gateway, then .build/release/gateway bench ...

            Benchmarks:
            \(lines.joined(separator: "\n"))

            Options:
              --json            Print JSON, one object per line, each with a "benchmark" member:
                                one per result for parse, normalize, validate and cache
                                ({"benchmark", "input", "bytes", "runs", "median_us", "p10_us",
                                 "p90_us", "mb_per_s"}, with "clock": "cpu" under --cpu), one per
                                benchmark for launch, pipeline, overhead, queue-memory and
                                download.
              --time SECONDS    Seconds of measuring per input (default 1). Under all, a value
                                below 1 also shrinks the network and queue benchmarks in
                                proportion: a quick check that they run, not a measurement.
              --cpu             Time with the thread's CPU clock instead of elapsed time: on a
                                busy machine, leaves out the time other processes run.

            Exit status:
              0  success
              1  an input is invalid (for example a syntax error)
              2  usage error, or a file cannot be read
            """
    }

    /// Runs the verb.
    /// - Returns: The exit status described in ``help``.
    public func run(_ arguments: inout Arguments, output: Output) async throws -> Int32 {
        let json = arguments.flag("json")
        let time = try arguments.number("time") ?? 1
        let clock: BenchmarkClock = arguments.flag("cpu") ? .cpu : .wall
        guard time > 0 else { throw UsageError("--time must be more than 0 seconds") }
        let benchmark = try chooseBenchmark(arguments)
        var input = try readInput(&arguments, for: benchmark, output: output)
        input.json = json
        #if DEBUG
        output.error("gateway bench: this is a debug build; build with -c release for meaningful numbers.")
        #endif
        let results: [BenchmarkResult]
        do {
            results = try await benchmark.run(input, runner: BenchmarkRunner(budget: time, clock: clock))
        } catch let failure as BenchmarkFailure {
            output.error("gateway bench \(benchmark.name): \(failure.message)")
            return failure.status
        }
        for result in results {
            output.print(json ? result.json.serialized(.compact) : result.line)
        }
        return 0
    }

    /// The benchmark named by the first positional argument, found by setting aside every option
    /// any benchmark reads.
    private func chooseBenchmark(_ arguments: Arguments) throws(UsageError) -> any Benchmark {
        var probe = arguments
        for option in benchmarks.flatMap(\.options) {
            if option.takesValue { _ = try probe.options(option.name) } else { _ = probe.flag(option.name) }
        }
        let names = benchmarks.map(\.name).joined(separator: ", ")
        guard let name = try probe.positionals().first else {
            throw UsageError("name a benchmark: \(names)")
        }
        guard let benchmark = benchmarks.first(where: { $0.name == name }) else {
            throw UsageError("unknown benchmark '\(name)'; choose one of \(names)")
        }
        return benchmark
    }

    private func readInput(
        _ arguments: inout Arguments, for benchmark: any Benchmark, output: Output
    ) throws(UsageError) -> BenchmarkInput {
        var values: [String: String] = [:]
        var flags: Set<String> = []
        for option in benchmark.options {
            if option.takesValue {
                if let value = try arguments.option(option.name) { values[option.name] = value }
            } else if arguments.flag(option.name) {
                flags.insert(option.name)
            }
        }
        let positionals = Array(try arguments.positionals().dropFirst())
        return BenchmarkInput(positionals: positionals, values: values, flags: flags, output: output)
    }
}
