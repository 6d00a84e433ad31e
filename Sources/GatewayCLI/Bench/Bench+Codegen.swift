import GatewayCodegen
import GraphQLLanguage

/// `gateway bench codegen SCHEMA QUERIES...`: generating the Swift types of a folder of
/// operations against a schema built once (parsing, validation, models, Swift text and hashes,
/// everything `gateway generate` does but writing the files).
struct CodegenBenchmark: Benchmark {
    var name: String { "codegen" }
    var summary: String { "Generate Swift types for query files, schema built once (ms per folder)" }
    var usage: String { "SCHEMA QUERIES... [--lenient]" }
    var options: [BenchmarkOption] {
        [.flag("lenient", help: "Build the schema leniently (needed for GitHub's current schema).")]
    }

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) throws -> [BenchmarkResult] {
        guard input.positionals.count >= 2 else {
            throw UsageError("name a schema (a file or directory) and the query files or folders to generate from")
        }
        let schemaFiles: [Source]
        let queries: [Source]
        do throws(CheckFiles.ReadError) {
            schemaFiles = try CheckFiles.read([input.positionals[0]], extensions: CheckFiles.schemaExtensions,
                                              limit: Limits.schemas.maxBytes, output: input.output)
            queries = try CheckFiles.read(Array(input.positionals.dropFirst()), extensions: CheckFiles.queryExtensions,
                                          limit: Limits.operations.maxBytes, output: input.output)
        } catch {
            throw BenchmarkFailure(message: error.description, status: 2)
        }
        guard let schema = Schema.build(files: schemaFiles, options: input.flag("lenient") ? .lenient : .strict).schema
        else {
            throw BenchmarkFailure(message: "the schema \(input.positionals[0]) does not build", status: 1)
        }
        let generator = CodeGenerator(schema: schema)
        let first = generator.generate(queries)
        guard first.diagnostics.isEmpty else {
            let problems = first.diagnostics.prefix(5).map(\.description).joined(separator: "\n")
            throw BenchmarkFailure(message: "the query files do not generate:\n\(problems)", status: 1)
        }
        let bytes = queries.reduce(0) { $0 + $1.bytes.count }
        let label = "\(Self.commonFolder(of: queries.map(\.name))) (\(queries.count) files)"
        return [runner.measure(benchmark: name, input: label, bytesPerRun: bytes) {
            generator.generate(queries).files.count
        }]
    }

    /// The longest folder path the names share (`.` when none).
    static func commonFolder(of names: [String]) -> String {
        guard var common = names.first?.split(separator: "/").dropLast() else { return "." }
        for name in names.dropFirst() {
            let parts = name.split(separator: "/").dropLast()
            common = common.prefix(zip(common, parts).prefix { $0 == $1 }.count)
        }
        return common.isEmpty ? "." : common.joined(separator: "/")
    }
}
