import Foundation
import Gateway
import GraphQLLanguage

#if canImport(Testing)
import Testing
#endif

#if canImport(XCTest)
import XCTest
#endif

/// Checks an app's `.graphql` query files against its schema, the way `gateway check` does, so that
/// a query the schema no longer allows fails `swift test` at the query's file and line.
///
/// From Swift Testing, one call does it:
///
/// ```swift
/// @Test func queriesMatchTheSchema() {
///     expectValidQueryFiles(in: "Queries", schema: "Schemas")
/// }
/// ```
///
/// and from XCTest, `assertValidQueryFiles(in:schema:)` on the test case. Relative paths are
/// resolved against the package root: the nearest folder above the calling test file that holds a
/// `Package.swift`.
public struct QueryFileChecks: Sendable {
    /// Query files or folders (searched recursively; each folder is one compilation unit).
    public var queries: [String]
    /// Schema files (`.graphql`, `.graphqls`, `.json`) or folders of SDL files, making one schema.
    public var schema: [String]
    /// Build a schema graphql-js would reject, treating its problems as warnings.
    public var lenient: Bool
    /// The folder relative paths are resolved against.
    public var root: URL

    /// Describes a check.
    /// - Parameters:
    ///   - queries: Query files or folders.
    ///   - schema: Schema files or folders.
    ///   - lenient: Whether to build the schema leniently.
    ///   - root: The folder relative paths resolve against.
    public init(queries: [String], schema: [String], lenient: Bool = false, root: URL) {
        self.queries = queries
        self.schema = schema
        self.lenient = lenient
        self.root = root
    }

    /// What a check found.
    public struct Outcome: Sendable {
        /// Problems with the schema (warnings when lenient), including one that stopped building it.
        public var schemaDiagnostics: [Diagnostic]
        /// The query files' check; `nil` when the schema did not build.
        public var queries: QueryFileCheck?

        /// Every error, schema and queries together.
        public var errors: [Diagnostic] {
            (schemaDiagnostics + (queries?.diagnostics ?? [])).filter { $0.severity == .error }
        }
    }

    /// A file or folder that cannot be read.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        /// What could not be read, and why.
        public var description: String
    }

    /// Reads the files, builds the schema and checks the queries.
    /// - Throws: ``ReadError`` when a path is missing, unreadable or holds no GraphQL files.
    public func run() throws(ReadError) -> Outcome {
        let schemaFiles = try read(schema, extensions: ["graphql", "graphqls", "json"])
        let queryFiles = try read(queries, extensions: ["graphql", "gql"])
        let built = Schema.build(files: schemaFiles, options: lenient ? .lenient : .strict)
        guard let schema = built.schema else { return Outcome(schemaDiagnostics: built.diagnostics, queries: nil) }
        let queries = QueryFileCheck(sources: queryFiles, schema: schema)
        return Outcome(schemaDiagnostics: built.diagnostics, queries: queries)
    }

    /// The package root above `filePath`: the nearest folder holding a `Package.swift`, or else the
    /// file's own folder.
    public static func packageRoot(containing filePath: String) -> URL {
        let start = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        var folder = start
        while folder.path != "/" && !folder.path.isEmpty {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder = folder.deletingLastPathComponent()
        }
        return start
    }

    /// The files at `paths`, each named by its absolute path so that problems point at it.
    private func read(_ paths: [String], extensions: [String]) throws(ReadError) -> [Source] {
        var sources: [Source] = []
        for path in paths {
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw ReadError(description: "'\(url.path)' does not exist.")
            }
            var files: [URL] = []
            if isDirectory.boolValue {
                let enumerator = FileManager.default.enumerator(atPath: url.path)
                while let relative = enumerator?.nextObject() as? String {
                    guard extensions.contains((relative as NSString).pathExtension.lowercased()) else { continue }
                    files.append(url.appendingPathComponent(relative))
                }
                guard !files.isEmpty else {
                    throw ReadError(description: "'\(url.path)' holds no \(extensions.joined(separator: ", ")) files.")
                }
            } else {
                files = [url]
            }
            for file in files.sorted(by: { $0.path < $1.path }) {
                // No further than one byte past the largest document the parser accepts: it refuses a
                // larger file with the same error, without the file being read whole.
                guard let source = Source.reading(file, upTo: Limits.schemas.maxBytes) else {
                    throw ReadError(description: "'\(file.path)' cannot be read.")
                }
                sources.append(source)
            }
        }
        return sources
    }

    /// The text of a problem as a test failure: the message, the rule, the source line and a caret.
    static func failureText(_ diagnostic: Diagnostic) -> String {
        var text = diagnostic.message
        if let rule = diagnostic.rule { text += " [\(rule)]" }
        // The rendered form's second and third lines are the source line and the caret.
        let rendered = diagnostic.rendered().split(separator: "\n", omittingEmptySubsequences: false)
        if rendered.count >= 3 { text += "\n" + rendered[1] + "\n" + rendered[2] }
        return text
    }
}

#if canImport(Testing)
/// Checks query files against a schema, recording every problem as a test issue at the `.graphql`
/// (or schema) file, line and column it concerns.
///
/// - Parameters:
///   - queries: Query files or folders, relative to the package root or absolute; `Queries` by default.
///   - schema: Schema files or folders; `Schemas` by default.
///   - lenient: Build a schema graphql-js would reject, ignoring the problems that allows.
///   - filePath: The calling file, whose package root relative paths resolve against.
///   - sourceLocation: Where to record problems that have no place of their own, such as a
///     missing folder.
/// - Returns: What the check found, or `nil` when the files could not be read.
@discardableResult
public func expectValidQueryFiles(
    in queries: String = "Queries", schema: String = "Schemas", lenient: Bool = false,
    filePath: String = #filePath, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> QueryFileChecks.Outcome? {
    let checks = QueryFileChecks(
        queries: [queries], schema: [schema], lenient: lenient, root: QueryFileChecks.packageRoot(containing: filePath)
    )
    let outcome: QueryFileChecks.Outcome
    do {
        outcome = try checks.run()
    } catch {
        Issue.record(Comment(rawValue: error.description), sourceLocation: sourceLocation)
        return nil
    }
    for diagnostic in outcome.errors {
        let location = diagnostic.locations.first.flatMap { location -> Testing.SourceLocation? in
            guard let path = location.source?.name, location.line > 0, location.column > 0 else { return nil }
            let url = URL(fileURLWithPath: path)
            let fileID = url.deletingLastPathComponent().lastPathComponent + "/" + url.lastPathComponent
            return Testing.SourceLocation(fileID: fileID, filePath: path, line: location.line, column: location.column)
        }
        let text = QueryFileChecks.failureText(diagnostic)
        Issue.record(Comment(rawValue: text), sourceLocation: location ?? sourceLocation)
    }
    if outcome.queries == nil {
        Issue.record("The schema does not build; see the problems recorded with it.", sourceLocation: sourceLocation)
    }
    return outcome
}
#endif

#if canImport(XCTest)
extension XCTestCase {
    /// Checks query files against a schema, recording every problem as a test failure at the
    /// `.graphql` (or schema) file and line it concerns.
    /// - Parameters:
    ///   - queries: Query files or folders, relative to the package root or absolute.
    ///   - schema: Schema files or folders.
    ///   - lenient: Build a schema graphql-js would reject, ignoring the problems that allows.
    ///   - file: The calling file, whose package root relative paths resolve against.
    ///   - line: The calling line, for problems without a place of their own.
    /// - Returns: What the check found, or `nil` when the files could not be read.
    @discardableResult
    public func assertValidQueryFiles(
        in queries: String = "Queries", schema: String = "Schemas", lenient: Bool = false,
        file: StaticString = #filePath, line: UInt = #line
    ) -> QueryFileChecks.Outcome? {
        let callerPath = "\(file)"
        let checks = QueryFileChecks(
            queries: [queries], schema: [schema], lenient: lenient,
            root: QueryFileChecks.packageRoot(containing: callerPath)
        )
        let outcome: QueryFileChecks.Outcome
        do {
            outcome = try checks.run()
        } catch {
            recordQueryFailure(error.description, path: callerPath, line: Int(line))
            return nil
        }
        for diagnostic in outcome.errors {
            let location = diagnostic.locations.first
            recordQueryFailure(
                QueryFileChecks.failureText(diagnostic), path: location?.source?.name ?? callerPath,
                line: location.map { max(1, $0.line) } ?? Int(line)
            )
        }
        if outcome.queries == nil {
            recordQueryFailure("The schema does not build; see the problems recorded with it.", path: callerPath,
                               line: Int(line))
        }
        return outcome
    }

    private func recordQueryFailure(_ message: String, path: String, line: Int) {
        #if canImport(Darwin)
        let location = XCTSourceCodeLocation(filePath: path, lineNumber: line)
        record(XCTIssue(
            type: .assertionFailure, compactDescription: message,
            sourceCodeContext: XCTSourceCodeContext(location: location)
        ))
        #else
        recordFailure(withDescription: message, inFile: path, atLine: line, expected: true)
        #endif
    }
}
#endif
