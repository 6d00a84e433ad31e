/// Query files checked against a schema, the way `gateway check` and the `GatewayTesting` helper
/// check them: the files of each folder form one compilation unit (a fragment defined in one file
/// may be spread in another, and fragment-only files are fine), each file is parsed, and each unit
/// is validated.
///
/// ```swift
/// let check = QueryFileCheck(sources: files, schema: schema)
/// check.diagnostics.forEach { print($0.rendered()) }
/// print(check.summary)  // 11 files, 10 operations, 3 fragments: 0 errors
/// ```
///
/// Reading files is left to the caller, so this type needs no Foundation: name each ``Source``
/// by its path, with `/` between folders.
public struct QueryFileCheck: Sendable {
    /// How many files were checked.
    public var fileCount: Int
    /// How many operations the files define.
    public var operationCount: Int
    /// How many fragments the files define.
    public var fragmentCount: Int
    /// Every problem: syntax errors, then each unit's validation errors, in file and position order.
    public var diagnostics: [Diagnostic]

    /// The number of diagnostics that are errors.
    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }

    /// `N files, M operations, K fragments: E errors`.
    public var summary: String {
        "\(Self.count(fileCount, "file")), \(Self.count(operationCount, "operation")), "
            + "\(Self.count(fragmentCount, "fragment")): \(Self.count(errorCount, "error"))"
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// Checks query files against a schema.
    /// - Parameters:
    ///   - sources: The files, each named by its path; files with the same folder form one unit.
    ///   - schema: The schema to validate against.
    ///   - rules: The rules to apply; all of them by default.
    ///   - limits: The bounds on the work done.
    public init(sources: [Source], schema: Schema, rules: [ValidationRule] = ValidationRule.allCases,
                limits: Validator.Limits = .standard) {
        fileCount = sources.count
        operationCount = 0
        fragmentCount = 0
        diagnostics = []
        let validator = Validator(schema: schema, rules: rules, limits: limits)
        for unit in Self.units(sources) {
            var documents: [Document] = []
            for source in unit {
                do {
                    let document = try Parser.parse(source, limits: .operations)
                    for definition in document.definitions {
                        switch definition {
                        case .operation: operationCount += 1
                        case .fragment: fragmentCount += 1
                        default: break
                        }
                    }
                    documents.append(document)
                } catch {
                    diagnostics.append(error.diagnostic)
                }
            }
            guard !documents.isEmpty else { continue }
            var found = validator.validate(documents)
            // A problem of the whole unit (graphql-js's "Validation aborted" past the error limit)
            // has no place; in a unit of one file, it is that file's, so it is placed at its start.
            if unit.count == 1, let file = unit.first {
                for index in found.indices where found[index].locations.isEmpty {
                    found[index].locations = [SourceLocation(offset: 0, line: 1, column: 1, source: file)]
                }
            }
            diagnostics += found
        }
    }

    /// The sources grouped by folder, folders and files in path order.
    static func units(_ sources: [Source]) -> [[Source]] {
        var folders: [String: [Source]] = [:]
        for source in sources {
            folders[folder(of: source.name), default: []].append(source)
        }
        return folders.keys.sorted().map { key in (folders[key] ?? []).sorted { $0.name < $1.name } }
    }

    /// The folder part of a path: everything before the last `/` (nothing when there is none).
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}

extension Schema {
    /// Builds one schema from schema files, as `gateway check --schema` reads them: SDL files
    /// (`.graphql`, `.graphqls`) together, or a single introspection result (`.json`).
    /// - Parameters:
    ///   - files: The files, each named by its path.
    ///   - options: How strictly to build.
    /// - Returns: The schema, if it could be built, and the diagnostics.
    public static func build(files: [Source], options: BuildOptions = .strict) -> SchemaBuildResult {
        let json = files.filter { $0.name.hasSuffix(".json") }
        if json.isEmpty { return build(sources: files, options: options) }
        guard json.count == 1, files.count == 1 else {
            let names = files.map(\.name).joined(separator: ", ")
            return SchemaBuildResult(schema: nil, diagnostics: [Diagnostic(
                message: "A schema is either SDL files or one introspection result (.json), not a mix or several "
                    + "results: \(names). Point --schema at one of them."
            )])
        }
        return build(introspectionJSON: json[0].bytes, name: json[0].name)
    }
}
