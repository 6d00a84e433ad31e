import Foundation
import GraphQLLanguage

/// `gateway bench validate SCHEMA FILE...`: validating each operation file against a schema built
/// once.
///
/// Each file is parsed once and validated repeatedly; only validation is timed. The fragments a
/// file spreads but does not define are taken from the other `.graphql` files of its folder (the
/// first definition in path order), as `gateway check` would find them, and validated with it.
struct ValidateBenchmark: Benchmark {
    var name: String { "validate" }
    var summary: String { "Validate operations against a schema built once (µs per validation)" }
    var usage: String { "SCHEMA FILE... [--lenient]" }
    var options: [BenchmarkOption] {
        [.flag("lenient", help: "Build the schema leniently (needed for GitHub's current schema).")]
    }

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) throws -> [BenchmarkResult] {
        guard input.positionals.count >= 2 else {
            throw UsageError("name a schema (a file or directory) and at least one operation file")
        }
        let schema = try buildSchema(input.positionals[0], lenient: input.flag("lenient"), output: input.output)
        let validator = Validator(schema: schema)
        var results: [BenchmarkResult] = []
        for path in input.positionals.dropFirst() {
            let bytes = try input.read(path)
            let unit = try self.unit(for: path, bytes: bytes, output: input.output)
            results.append(runner.measure(benchmark: name, input: path, bytesPerRun: bytes.count) {
                validator.validate(unit).count
            })
        }
        return results
    }

    private func buildSchema(_ path: String, lenient: Bool, output: Output) throws -> Schema {
        let files: [Source]
        do throws(CheckFiles.ReadError) {
            files = try CheckFiles.read([path], extensions: CheckFiles.schemaExtensions,
                                        limit: Limits.schemas.maxBytes, output: output)
        } catch {
            throw BenchmarkFailure(message: error.description, status: 2)
        }
        let built = Schema.build(files: files, options: lenient ? .lenient : .strict)
        guard let schema = built.schema else {
            let problems = built.errors.prefix(5).map(\.description).joined(separator: "\n")
            throw BenchmarkFailure(
                message: "the schema \(path) does not build\(lenient ? "" : " (try --lenient)"):\n\(problems)",
                status: 1
            )
        }
        return schema
    }

    /// The file's document plus the definitions of the fragments it needs from its folder.
    private func unit(for path: String, bytes: [UInt8], output: Output) throws -> [Document] {
        let document: Document
        do {
            document = try Parser.parse(Source(bytes: bytes, name: path))
        } catch {
            throw BenchmarkFailure(message: "\(path) does not parse:\n\(error)", status: 1)
        }
        var defined = Set(document.definitions.compactMap { definition -> String? in
            if case .fragment(let fragment) = definition { fragment.name.value } else { nil }
        })
        var wanted = Self.spreadNames(document.definitions).filter { !defined.contains($0) }
        guard !wanted.isEmpty else { return [document] }
        let url = output.url(forPath: path)
        let folder = url.deletingLastPathComponent()
        var available: [String: (definition: FragmentDefinition, source: Source)] = [:]
        for relative in CheckFiles.files(in: folder, extensions: ["graphql"]) where !relative.contains("/") {
            let fileURL = folder.appendingPathComponent(relative)
            guard fileURL.standardizedFileURL != url.standardizedFileURL,
                let data = FileManager.default.contents(atPath: fileURL.path),
                let other = try? Parser.parse(Source(bytes: [UInt8](data), name: relative))
            else { continue }
            for case .fragment(let fragment) in other.definitions where available[fragment.name.value] == nil {
                available[fragment.name.value] = (fragment, other.source ?? Source(""))
            }
        }
        var extra: [Document] = []
        while let name = wanted.popLast() {
            guard !defined.contains(name), let found = available[name] else { continue }
            defined.insert(name)
            extra.append(Document(definitions: [.fragment(found.definition)], source: found.source))
            wanted += Self.spreadNames([.fragment(found.definition)]).filter { !defined.contains($0) }
        }
        return [document] + extra
    }

    /// The names of the fragments spread anywhere in `definitions`.
    private static func spreadNames(_ definitions: [Definition]) -> [String] {
        var names: [String] = []
        var sets: [SelectionSet] = []
        for definition in definitions {
            switch definition {
            case .operation(let operation): sets.append(operation.selectionSet)
            case .fragment(let fragment): sets.append(fragment.selectionSet)
            default: break
            }
        }
        while let set = sets.popLast() {
            for selection in set.selections {
                switch selection {
                case .field(let field): if let nested = field.selectionSet { sets.append(nested) }
                case .inlineFragment(let inline): sets.append(inline.selectionSet)
                case .fragmentSpread(let spread): names.append(spread.name.value)
                }
            }
        }
        return names
    }
}
