import Foundation

/// One GraphQL library as the benchmarks drive it. Each `prepare…` does the one-time work
/// (reading, parsing what is not measured, building a schema), checks that the library handles
/// the input, and returns one measured run.
struct GraphQLPeer: Sendable {
    var name: String
    var prepareParse: @Sendable (_ text: String, _ isSchema: Bool) throws -> () -> Int
    var preparePrint: @Sendable (_ text: String, _ isSchema: Bool) throws -> () -> Int
    var prepareValidate: @Sendable (_ schema: String, _ operation: String) throws -> () -> Int
}

/// A benchmark that could not run, with the reason.
struct PeerFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Parse, print and validate, Gateway against GraphQLSwift, on the corpus of `../shared/corpora`.
struct GraphQLBenchmarks {
    var corpora: URL
    var sampler: Sampler

    static let schemas = [
        ("GitHub schema", "schemas/github/octokit-graphql-schema/schema.graphql"),
        ("GitLab schema", "schemas/gitlab/git-filesystem/gitlab_schema.graphql"),
        ("Shopify schema", "schemas/shopify-storefront/vuestorefront-shopify/schema.graphql"),
    ]
    static let operations = [
        (
            "Shopify get_product_media",
            "operations/shopify-storefront/storefront-api-learning-kit/06_products/05_get_product_media/query.graphql"
        ),
        ("GitHub RepoFileHistory", "operations/github/GitHawk/RepoFileHistory.graphql"),
        ("SWAPI 06_fragments", "operations/swapi/swapi-graphql/06_fragments.graphql"),
    ]
    static let validations = [
        (
            "GitHub RepoFileHistory", "schemas/github/octokit-graphql-schema/schema.graphql",
            "operations/github/GitHawk/RepoFileHistory.graphql"
        ),
        (
            "SWAPI 06_fragments", "schemas/swapi/swapi-graphql/schema.graphql",
            "operations/swapi/swapi-graphql/06_fragments.graphql"
        ),
        (
            "Star Wars HeroAndFriendsNames", "schemas/starwars/apollo-ios-dev-StarWarsAPI/schema.graphqls",
            "operations/starwars/apollo-ios-dev-StarWarsAPI/HeroAndFriendsNames.graphql"
        ),
    ]

    static let peers = [GatewayGraphQL.peer, GraphQLSwiftPeer.peer]

    /// Runs every GraphQL benchmark, calling `emit` with each result as it is measured.
    func run(_ emit: (Result) -> Void) throws {
        for (name, path) in Self.schemas {
            let text = try read(path)
            emit(compare("parse", name, bytes: text.utf8.count) { try $0.prepareParse(text, true) })
        }
        for (name, path) in Self.operations {
            let text = try read(path)
            emit(compare("parse", name, bytes: text.utf8.count) { try $0.prepareParse(text, false) })
        }
        for (name, path) in [Self.schemas[2]] + Self.operations {
            let text = try read(path)
            emit(
                compare("print", name, bytes: text.utf8.count) { try $0.preparePrint(text, path.hasPrefix("schemas/")) }
            )
        }
        for (name, schemaPath, operationPath) in Self.validations {
            let schema = try read(schemaPath), operation = try read(operationPath)
            emit(compare("validate", name, bytes: operation.utf8.count) { try $0.prepareValidate(schema, operation) })
        }
    }

    /// One benchmark, each library measured in turn.
    struct Result: Sendable, Codable {
        struct Measurement: Sendable, Codable {
            var library: String
            /// Seconds per run, or `nil` when the library could not run it.
            var seconds: Spread?
            var failure: String?
        }

        var benchmark: String
        var input: String
        var bytes: Int
        var measurements: [Measurement]
        /// How many times faster Gateway is: GraphQLSwift's time per run over Gateway's, the
        /// two measured in alternation, taken sample pair by sample pair (the median).
        var speedup: Double?
    }

    private func compare(_ benchmark: String, _ input: String, bytes: Int, prepare: (GraphQLPeer) throws -> () -> Int)
        -> Result
    {
        var result = Result(benchmark: benchmark, input: input, bytes: bytes, measurements: [])
        // Gateway first: the libraries that run are measured in alternation.
        var runs: [(name: String, run: () -> Int)] = []
        var failures: [String: String] = [:]
        for peer in Self.peers {
            do {
                runs.append((peer.name, try prepare(peer)))
            } catch {
                failures[peer.name] = "\(error)"
            }
        }
        let measured = runs.isEmpty ? nil : sampler.measureInterleaved(runs.map(\.run))
        for peer in Self.peers {
            if let index = runs.firstIndex(where: { $0.name == peer.name }), let measured {
                result.measurements.append(.init(library: peer.name, seconds: measured.seconds[index]))
            } else {
                result.measurements.append(.init(library: peer.name, failure: failures[peer.name]))
            }
        }
        if runs.count == 2, runs.first?.name == Self.peers.first?.name, let ratio = measured?.ratiosToFirst.first {
            result.speedup = ratio
        }
        return result
    }

    private func read(_ path: String) throws -> String {
        let url = corpora.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw PeerFailure("cannot read \(url.path); give the corpus folder with --corpora PATH")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
