/// What building a schema produced: the schema, unless an error prevented it, and every problem
/// found on the way.
public struct SchemaBuildResult: Sendable {
    /// The schema; `nil` when an error (not a warning) was found.
    public var schema: Schema?
    /// Errors and warnings, in the order they were found, each with the places it involves.
    public var diagnostics: [Diagnostic]

    /// The diagnostics that prevented building.
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
    /// The diagnostics lenient building let through.
    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
}

extension Schema {
    /// How strictly to build a schema.
    public struct BuildOptions: Sendable, Hashable {
        /// Build despite problems graphql-js would reject (a field defined twice, an unknown
        /// directive, a bad interface implementation), reporting them as warnings. Problems that
        /// leave no sensible schema, such as a reference to an undefined type, are still errors.
        public var lenient: Bool

        /// Creates build options.
        /// - Parameter lenient: Whether to build despite problems, reporting them as warnings.
        public init(lenient: Bool = false) {
            self.lenient = lenient
        }

        /// Every problem is an error, as graphql-js's `buildASTSchema` has it.
        public static var strict: BuildOptions { BuildOptions() }
        /// Problems that leave a usable schema are warnings.
        public static var lenient: BuildOptions { BuildOptions(lenient: true) }
    }

    /// Builds a schema from SDL documents, which together form one schema (types may be defined in
    /// one document and extended in another).
    ///
    /// The documents are checked as graphql-js checks SDL (`validateSDL`) and the result as
    /// `validateSchema` does: unique names, known types and directives, interface implementations,
    /// union members, input-object cycles and so on, every problem a diagnostic with locations.
    /// Executable definitions (operations and fragments) in the documents are ignored.
    /// - Parameters:
    ///   - documents: Parsed SDL documents; parse them with ``Limits/schemas``.
    ///   - options: ``BuildOptions/strict`` (the default) or ``BuildOptions/lenient``.
    /// - Returns: The schema, if it could be built, and the diagnostics.
    public static func build(_ documents: [Document], options: BuildOptions = .strict) -> SchemaBuildResult {
        var builder = SchemaBuilder(documents: documents, lenient: options.lenient)
        builder.validateSDL()
        return builder.build()
    }

    /// Parses SDL texts and builds one schema from them; a syntax error is reported as a diagnostic.
    /// - Parameters:
    ///   - sources: The SDL texts, each named by its path.
    ///   - options: How strictly to build.
    /// - Returns: The schema, if it could be built, and the diagnostics.
    public static func build(sources: [Source], options: BuildOptions = .strict) -> SchemaBuildResult {
        let (documents, diagnostics) = Parser.parseEach(sources, limits: .schemas)
        guard diagnostics.isEmpty else { return SchemaBuildResult(schema: nil, diagnostics: diagnostics) }
        return build(documents, options: options)
    }
}
