import Foundation

/// `gateway bench launch|pipeline|overhead`: the queue's launch scenario and the pipeline's
/// cost per request against bare `URLSession`. Run them from a release build.
struct BenchCommand: Command {
    let name = "bench"
    let summary = "Measure the launch scenario and the pipeline's cost per request (use a release build)"
    let help = """
        Usage: gateway bench launch [--runs N]
               gateway bench pipeline [--requests N] [--runs N] [--in-process]
               gateway bench overhead [--requests N]

        launch    38 requests (3 high, 30 medium, 5 low) queued behind a token-refresh blocker,
                  against a loopback server with fixed per-route delays (refresh 150 ms, high
                  40 ms, medium 80 ms, low 120 ms), through a Provider with URLSessionTransport
                  and a PriorityRequestQueue with a cap of 6. Reports the time until the last
                  request finished against the ideal schedule computed from the delays and the
                  cap (the blocker alone, then the 38 by priority on 6 slots), median of the runs
                  after one warm-up run (default 5 runs).
        pipeline  GET of a 628-byte JSON body from a loopback server running in a child
                  process, through Provider + URLSessionTransport and through bare URLSession
                  (ephemeral, 6 connections per host for both), one at a time and 64 in flight:
                  requests per second and CPU time per request of this process (getrusage),
                  median of the runs after a warm-up (default 3 runs of 2,000 requests).
                  --in-process serves from this process instead (its CPU time then counts).
                  Rows for URLSessionTransport alone, a Provider over a bare data(for:)
                  transport and a Provider over a transport that answers at once show where
                  the cost goes.
        overhead  The pipeline alone: a Provider over a transport that answers at once, one
                  request at a time (default 20,000): µs of wall and CPU time per request.

        Build first: swift build -c release; then .build/release/gateway bench launch
        """

    func run(_ arguments: inout Arguments, output: Output) async throws -> Int32 {
        let runs = try arguments.number("runs").map { Int($0) }
        let requests = try arguments.number("requests").map { Int($0) }
        let inProcess = arguments.flag("in-process")
        let positionals = try arguments.positionals()
        guard positionals.count == 1 else {
            throw UsageError("expected one benchmark: launch, pipeline or overhead")
        }
        #if DEBUG
        if positionals[0] != "serve" {
            output.error("gateway bench: this is a debug build; numbers from it mean little (swift build -c release)")
        }
        #endif
        switch positionals[0] {
        case "launch":
            let report = try await LaunchBenchmark(runs: max(1, runs ?? 5)).run()
            output.print(report)
        case "pipeline":
            let report = try await PipelineBenchmark(
                requests: max(100, requests ?? 2_000), runs: max(1, runs ?? 3), inProcess: inProcess
            ).run()
            output.print(report)
        case "overhead":
            output.print(try await PipelineBenchmark.overhead(requests: max(100, requests ?? 20_000)))
        case "serve":
            try await PipelineBenchmark.serve(output: output)
        default:
            throw UsageError("unknown benchmark '\(positionals[0])'; use launch, pipeline or overhead")
        }
        return 0
    }
}
