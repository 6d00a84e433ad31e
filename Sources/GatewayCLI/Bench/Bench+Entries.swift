/// The queue and pipeline benchmarks as entries of `gateway bench`; each prints its own report.
struct LaunchBenchmarkEntry: Benchmark {
    var name: String { "launch" }
    var summary: String {
        "38 requests (3 high, 30 medium, 5 low) behind a token-refresh blocker, against the ideal schedule"
    }
    var usage: String { "[--runs N]" }
    var options: [BenchmarkOption] { [.value("runs", help: "Measured runs after one warm-up (default 5).")] }

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) async throws -> [BenchmarkResult] {
        let runs = try input.count("runs") ?? 5
        let report = try await LaunchBenchmark(runs: max(1, runs)).run()
        input.output.print(input.json ? report.json.serialized(.compact) : report.text)
        return []
    }
}

/// `gateway bench pipeline`: Provider + URLSessionTransport against bare URLSession.
struct PipelineBenchmarkEntry: Benchmark {
    var name: String { "pipeline" }
    var summary: String {
        "Provider + URLSessionTransport against bare URLSession on one loopback server, 1 and 64 in flight"
    }
    var usage: String { "[--requests N] [--runs N] [--in-process] [--clients KEY,...]" }
    var options: [BenchmarkOption] {
        [
            .value("requests", help: "Requests per run (default 1,500)."),
            .value("runs", help: "Measured runs after a warm-up, taking turns across the clients (default 5)."),
            .flag("in-process", help: "Serve from this process instead of a child process."),
            .value("clients",
                   help: "Only these clients: " + PipelineBenchmark.clientKeys.joined(separator: ", ") + "."),
        ]
    }

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) async throws -> [BenchmarkResult] {
        var benchmark = PipelineBenchmark(
            requests: max(10, try input.count("requests") ?? 1_500), runs: max(1, try input.count("runs") ?? 5),
            inProcess: input.flag("in-process"))
        if let clients = input.value("clients") {
            let keys = clients.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for key in keys where !PipelineBenchmark.clientKeys.contains(key) {
                throw UsageError("unknown client '\(key)' for --clients; choose from "
                                 + PipelineBenchmark.clientKeys.joined(separator: ", "))
            }
            benchmark.only = Set(keys)
        }
        let report = try await benchmark.run()
        input.output.print(input.json ? report.json.serialized(.compact) : report.text)
        return []
    }
}

/// `gateway bench overhead`: the pipeline alone over a transport that answers at once.
struct OverheadBenchmarkEntry: Benchmark {
    var name: String { "overhead" }
    var summary: String { "The pipeline alone, over a transport that answers at once: µs per request" }
    var usage: String { "[--requests N] [--in-flight N] [--all-stages [--deduplicate]]" }
    var options: [BenchmarkOption] {
        [.value("requests", help: "Requests (default 20,000)."),
         .value("in-flight", help: "Requests in flight: that many tasks, each sending one after another (default 1)."),
         .flag("all-stages", help: "Bearer auth, a response cache (networkOnly), the queue and a metrics observer."),
         .flag("deduplicate", help: "With --all-stages: the cache shares one call among identical requests in flight "
             + "(its default; off otherwise, so that every request is sent).")]
    }

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) async throws -> [BenchmarkResult] {
        let report = try await PipelineBenchmark.overhead(
            requests: max(100, try input.count("requests") ?? 20_000), inFlight: max(1, try input.count("in-flight") ?? 1),
            allStages: input.flag("all-stages"), deduplicates: input.flag("deduplicate"))
        input.output.print(input.json ? report.json.serialized(.compact) : report.text)
        return []
    }
}

/// `gateway bench queue-memory`: bytes per request waiting in the queue.
struct QueueMemoryBenchmarkEntry: Benchmark {
    var name: String { "queue-memory" }
    var summary: String { "Memory per queued request, with 10,000 waiting behind a blocker (bytes, resident)" }
    var usage: String { "[--queued N]" }
    var options: [BenchmarkOption] { [.value("queued", help: "Requests left waiting (default 10,000).")] }

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) async throws -> [BenchmarkResult] {
        let report = try await QueueMemoryBenchmark(count: max(1, try input.count("queued") ?? 10_000)).run()
        input.output.print(input.json ? report.json.serialized(.compact) : report.text)
        return []
    }
}

/// `gateway bench serve`: the loopback server that `pipeline` runs in a child process.
struct ServeBenchmarkEntry: Benchmark {
    var name: String { "serve" }
    var summary: String { "The loopback server the pipeline benchmark starts in a child process (internal)" }
    var usage: String { "" }
    var options: [BenchmarkOption] { [] }

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) async throws -> [BenchmarkResult] {
        try await PipelineBenchmark.serve(output: input.output)
        return []
    }
}

extension BenchmarkInput {
    /// The value of `--name` as a whole number, or `nil` when not given.
    func count(_ name: String) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), number >= 0 else {
            throw UsageError("--\(name) takes a whole number; got '\(text)'")
        }
        return number
    }
}
