/// Validates executable documents against a schema: every rule of the specification's Validation
/// section, in graphql-js 16's words, with the locations and rule name of each problem.
///
/// ```swift
/// let validator = Validator(schema: schema)
/// for diagnostic in validator.validate(document) { print(diagnostic.rendered()) }
/// ```
///
/// Several documents validated together form one compilation unit, as Apollo treats the `.graphql`
/// files of a folder: a fragment defined in one may be spread in another, names must be unique
/// across all of them, and a fragment is unused only if no operation of the unit uses it.
///
/// Validation never throws and is bounded on hostile documents: fragment cycles terminate, the
/// field-merging check memoizes as graphql-js does, and documents whose fragments would expand
/// past ``Limits`` are rejected without expanding them. At most ``Limits/maxErrors`` problems are
/// reported, followed by graphql-js's "Too many validation errors" diagnostic.
public struct Validator: Sendable {
    /// Bounds on the work one validation does.
    public struct Limits: Sendable, Hashable {
        /// The most problems reported before validation stops (graphql-js: 100).
        public var maxErrors: Int
        /// The most fields an operation may select once its fragments are expanded.
        public var maxSelections: Int
        /// The deepest nesting of selections, counting each fragment spread as a level, that is
        /// validated; also bounds the recursion of the walk.
        public var maxDepth: Int

        /// Creates limits.
        /// - Parameters:
        ///   - maxErrors: The most problems reported.
        ///   - maxSelections: The most fields an operation may select with fragments expanded.
        ///   - maxDepth: The deepest nesting validated.
        public init(maxErrors: Int = 100, maxSelections: Int = 100_000, maxDepth: Int = 128) {
            self.maxErrors = maxErrors
            self.maxSelections = maxSelections
            self.maxDepth = maxDepth
        }

        /// 100 errors, 100,000 selections, 128 levels.
        public static let standard = Limits()
    }

    /// The schema documents are validated against.
    public let schema: Schema
    /// The rules applied; all of them by default.
    public var rules: [ValidationRule]
    /// The bounds on the work done.
    public var limits: Limits

    /// Creates a validator.
    /// - Parameters:
    ///   - schema: The schema to validate against.
    ///   - rules: The rules to apply; ``ValidationRule/allCases`` (the specified rules and the
    ///     selection limits) by default.
    ///   - limits: The bounds on the work done.
    public init(schema: Schema, rules: [ValidationRule] = ValidationRule.allCases, limits: Limits = .standard) {
        self.schema = schema
        self.rules = rules
        self.limits = limits
    }

    /// Validates one document.
    /// - Parameter document: A parsed executable document.
    /// - Returns: The problems found, in document order; empty when the document is valid.
    public func validate(_ document: Document) -> [Diagnostic] {
        validate([document])
    }

    /// Validates documents as one compilation unit.
    /// - Parameter documents: Parsed executable documents, for example every file of a folder.
    /// - Returns: The problems found, ordered by document and position; empty when all are valid.
    public func validate(_ documents: [Document]) -> [Diagnostic] {
        var context = ValidationContext(schema: schema, documents: documents, rules: RuleSet(rules), limits: limits)
        context.walk()
        // Without fragments nothing expands: the parser's limits bound the document already.
        if context.isEnabled(.selectionLimits), !context.fragments.isEmpty, !context.aborted {
            SelectionLimitsRule.check(in: &context)
        }
        if context.isEnabled(.overlappingFieldsCanBeMerged) { OverlappingFieldsCanBeMergedRule.checkAll(in: &context) }
        context.finish()
        return context.diagnostics()
    }
}
