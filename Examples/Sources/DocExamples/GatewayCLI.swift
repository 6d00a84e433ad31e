// The examples of Sources/GatewayCLI.
import GatewayCLI
import GraphQLLanguage

// Benchmark
struct ParseFileBenchmark: Benchmark {
    var name: String { "parse-file" }
    var summary: String { "Parse one operation file" }
    var usage: String { "FILE" }
    var options: [BenchmarkOption] { [] }
    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) throws -> [BenchmarkResult] {
        guard let path = input.positionals.first else { throw BenchmarkFailure(message: "name a file", status: 2) }
        let bytes = try input.read(path)
        return [runner.measure(benchmark: name, input: path, bytesPerRun: bytes.count) {
            (try? Parser.parse(Source(bytes: bytes, name: path)))?.definitions.count ?? 0
        }]
    }
}
