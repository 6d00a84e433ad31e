import GraphQLLanguage

/// `gateway bench parse FILE...`: parsing each file, with its throughput.
struct ParseBenchmark: Benchmark {
    var name: String { "parse" }
    var summary: String { "Parse GraphQL files (µs per parse, MB/s)" }
    var usage: String { "FILE... [--schema]" }
    var options: [BenchmarkOption] {
        [.flag("schema", help: "Parse with the schema limits profile (see 'gateway help parse').")]
    }

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) throws -> [BenchmarkResult] {
        guard !input.positionals.isEmpty else { throw UsageError("name at least one GraphQL file to parse") }
        var results: [BenchmarkResult] = []
        for path in input.positionals {
            let bytes = try input.read(path)
            let limits = try Self.limits(for: bytes, path: path, schema: input.flag("schema"))
            results.append(runner.measure(benchmark: name, input: path, bytesPerRun: bytes.count) {
                let document = try? Parser.parse(Source(bytes: bytes, name: path), limits: limits)
                return document?.definitions.count ?? -1
            })
        }
        return results
    }

    /// The limits that parse the file, as `gateway parse` chooses them.
    /// - Throws: ``BenchmarkFailure`` with the diagnostic when the file does not parse.
    static func limits(for bytes: [UInt8], path: String, schema: Bool) throws(BenchmarkFailure) -> Limits {
        do throws(GraphQLSyntaxError) {
            return try GraphQLFile.parse(bytes, path: path, schema: schema).limits
        } catch {
            throw BenchmarkFailure(message: "\(path) does not parse:\n\(error)", status: 1)
        }
    }
}

/// `gateway bench normalize FILE [--operation NAME] [--ast]`: parsing and normalizing one operation,
/// straight from the text (`Normalizer.normalize(Source)`, which checks the whole syntax) or, with
/// `--ast`, through the syntax tree (`Parser.parse`, then `Normalizer.normalize(Document)`).
struct NormalizeBenchmark: Benchmark {
    var name: String { "normalize" }
    var summary: String { "Parse and normalize an operation (µs per parse + normalize)" }
    var usage: String { "FILE... [--operation NAME] [--ast]" }
    var options: [BenchmarkOption] {
        [
            .value("operation", help: "The operation to normalize; required when a file has several."),
            .flag("ast", help: "Build the syntax tree and normalize it, instead of normalizing the text."),
        ]
    }

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) throws -> [BenchmarkResult] {
        guard !input.positionals.isEmpty else { throw UsageError("name the GraphQL file to normalize") }
        let operationName = input.value("operation")
        let throughSyntaxTree = input.flag("ast")
        var results: [BenchmarkResult] = []
        for path in input.positionals {
            let bytes = try input.read(path)
            let limits = try ParseBenchmark.limits(for: bytes, path: path, schema: false)
            do {
                let source = Source(bytes: bytes, name: path)
                _ = try Normalizer.normalize(source, operationName: operationName, limits: limits)
            } catch {
                throw BenchmarkFailure(message: "\(path): \(error)", status: 1)
            }
            results.append(runner.measure(benchmark: name, input: path, bytesPerRun: bytes.count) {
                guard throughSyntaxTree else {
                    let source = Source(bytes: bytes, name: path)
                    let normalized = try? Normalizer.normalize(source, operationName: operationName, limits: limits)
                    return normalized?.bytes.count ?? -1
                }
                guard let document = try? Parser.parse(Source(bytes: bytes, name: path), limits: limits),
                    let normalized = try? Normalizer.normalize(document, operationName: operationName)
                else { return -1 }
                return normalized.bytes.count
            })
        }
        return results
    }
}
