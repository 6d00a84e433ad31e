import Foundation
import GatewayTestSupport
import GraphQLLanguage
@testable import GatewayCLI

extension CheckCorpus {
    /// Which corpus files a run checks.
    enum FileSet: String, Sendable {
        /// The files of `invalid/` that name the schema.
        case invalid
        /// The self-contained documents whose primary schema it is.
        case selfContainedDocuments
    }

    /// One error of `gateway check --format json`.
    struct CheckedError: Hashable, Sendable, CustomStringConvertible {
        var rule: String?
        var line: Int
        var column: Int
        var message: String
        var description: String { "\(line):\(column) \(message) [\(rule ?? "-")]" }
    }

    /// The outcome of one `gateway check` over many corpus files.
    struct CheckRun: Sendable {
        var status: Int32
        var stderr: String
        /// The errors reported, by the file's manifest path; files without errors are absent.
        var errors: [String: [CheckedError]]
    }

    /// A run whose output cannot be read; every case that needs the run fails with it.
    struct RunFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    private static let runs = OnceCache<String, CheckRun>()

    /// `gateway check --format json` with the corpus schema `schemaID` over every file of `files`
    /// that uses it, run once per process however many test cases ask.
    ///
    /// Each file must stay a compilation unit of its own, as the manifest checked it, while
    /// `gateway check` makes one unit of each folder. So each file is named through a folder
    /// spelled its own way: the `n`th file gets `n` extra `./` before its name. The path reaches
    /// the same file, and the unit, keyed by the folder as written, holds that file alone.
    static func run(_ files: FileSet, schema schemaID: String) async throws -> CheckRun {
        try await runs.value(for: "\(files.rawValue) \(schemaID)") {
            let paths: [String] = switch files {
            case .invalid: invalid.filter { $0.schemas.contains(schemaID) }.map(\.path)
            case .selfContainedDocuments: selfContainedDocuments.filter { $0.primary_schema == schemaID }.map(\.path)
            }
            guard let schema = Self.schema(schemaID) else { throw RunFailure("no schema \(schemaID) in the manifest") }
            var arguments = ["check", "--format", "json"]
            for file in schema.files { arguments += ["--schema", root.appendingPathComponent(file).path] }
            if schema.needsLenient { arguments.append("--lenient") }
            var manifestPath: [String: String] = [:]
            for (index, path) in paths.enumerated() {
                let url = root.appendingPathComponent(path)
                let spelled = url.deletingLastPathComponent().path + "/" + String(repeating: "./", count: index)
                    + url.lastPathComponent
                manifestPath[spelled] = path
                arguments.append(spelled)
            }
            let sink = CapturedOutput()
            let status = await Dispatcher.standard.run(arguments, output: sink.output())
            guard let reported = try JSONValue(parsing: sink.stdout).arrayValue else {
                throw RunFailure("gateway check printed no JSON array: \(sink.stdout)\n\(sink.stderr)")
            }
            var errors: [String: [CheckedError]] = [:]
            for error in reported {
                guard let file = error["file"]?.stringValue, let path = manifestPath[file] else {
                    throw RunFailure("an error for no file that was checked: \(error)")
                }
                errors[path, default: []].append(CheckedError(
                    rule: error["rule"]?.stringValue, line: error["line"]?.intValue ?? 0,
                    column: error["column"]?.intValue ?? 0, message: error["message"]?.stringValue ?? ""))
            }
            return CheckRun(status: status, stderr: sink.stderr, errors: errors)
        }
    }
}
