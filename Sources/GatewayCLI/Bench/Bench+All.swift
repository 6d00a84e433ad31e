import Foundation

/// `gateway bench all`: every benchmark, one after another, on the corpus inputs and the defaults
/// BENCHMARKS.md uses.
///
/// Parsing, normalizing and validating read their inputs from the corpus folder (`--corpora`,
/// `../shared/corpora` by default) and are skipped, with a note on standard error, when it is
/// missing. With `--time` below 1 the network and queue benchmarks shrink in proportion, which
/// makes a quick check that everything runs, not a measurement.
struct AllBenchmarks: Benchmark {
    var name: String { "all" }
    var summary: String { "Every benchmark above, in one run (about 1.5 minutes with the defaults)" }
    var usage: String { "[--corpora DIR] [--in-process]" }
    var options: [BenchmarkOption] {
        [
            .value("corpora", help: "The corpus folder (default ../shared/corpora)."),
            .flag("in-process", help: "Serve the pipeline benchmark from this process."),
        ]
    }

    /// Corpus files, relative to the corpus folder.
    static let schemas = [
        "schemas/github/octokit-graphql-schema/schema.graphql",
        "schemas/gitlab/git-filesystem/gitlab_schema.graphql",
        "schemas/shopify-storefront/vuestorefront-shopify/schema.graphql",
    ]
    static let productMedia =
        "operations/shopify-storefront/storefront-api-learning-kit/06_products/05_get_product_media/query.graphql"
    static let repoFileHistory = "operations/github/GitHawk/RepoFileHistory.graphql"
    static let storefrontSchema = "schemas/shopify-storefront/hydrogen/storefront.schema.json"

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) async throws -> [BenchmarkResult] {
        let scale = min(1, runner.budget)
        let corpora = input.output.url(forPath: input.value("corpora") ?? "../shared/corpora").path
        var steps: [(any Benchmark, [String], [String: String], Set<String>)] = []
        if FileManager.default.fileExists(atPath: corpora) {
            let path = { (relative: String) in corpora + "/" + relative }
            steps.append((ParseBenchmark(), Self.schemas.map(path) + [path(Self.productMedia)], [:], []))
            steps.append((NormalizeBenchmark(), [path(Self.productMedia), path(Self.repoFileHistory)], [:], []))
            steps.append((ValidateBenchmark(), [path(Self.storefrontSchema), path(Self.productMedia)], [:], []))
        } else {
            input.output.error("gateway bench all: no corpus folder at \(corpora); skipping parse, normalize and "
                               + "validate (give one with --corpora)")
        }
        let shrunk = { (full: Int, least: Int) in String(max(least, Int(Double(full) * scale))) }
        steps.append((CacheBenchmark(), [], ["entries": shrunk(10_000, 100)], []))
        steps.append((LaunchBenchmarkEntry(), [], ["runs": scale < 1 ? "1" : "5"], []))
        steps.append((PipelineBenchmarkEntry(), [],
                      ["requests": shrunk(1_500, 10), "runs": scale < 1 ? "1" : "5"],
                      input.flag("in-process") ? ["in-process"] : []))
        steps.append((OverheadBenchmarkEntry(), [], ["requests": shrunk(20_000, 100)], []))
        steps.append((QueueMemoryBenchmarkEntry(), [], ["queued": shrunk(10_000, 100)], []))

        for (benchmark, positionals, values, flags) in steps {
            var step = BenchmarkInput(positionals: positionals, values: values, flags: flags, output: input.output)
            step.json = input.json
            let results = try await benchmark.run(step, runner: runner)
            for result in results {
                input.output.print(input.json ? result.json.serialized(.compact) : result.line)
            }
        }
        return []
    }
}
