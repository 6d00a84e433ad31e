/// The validation rules: those of the specification's Validation section, in graphql-js 16's
/// `specifiedRules` order and under graphql-js's names, plus the bounds that keep validation of
/// hostile documents cheap.
///
/// Each rule lives in `Rules/<Name>.swift`; ``specificationURL`` links to the section it checks.
public enum ValidationRule: String, Sendable, Hashable, CaseIterable {
    /// Only operations and fragments may appear.
    case executableDefinitions = "ExecutableDefinitionsRule"
    /// Operation names are unique.
    case uniqueOperationNames = "UniqueOperationNamesRule"
    /// An anonymous operation must be alone.
    case loneAnonymousOperation = "LoneAnonymousOperationRule"
    /// A subscription selects one top-level field.
    case singleFieldSubscriptions = "SingleFieldSubscriptionsRule"
    /// Named types exist in the schema.
    case knownTypeNames = "KnownTypeNamesRule"
    /// Fragments apply to objects, interfaces or unions.
    case fragmentsOnCompositeTypes = "FragmentsOnCompositeTypesRule"
    /// Variables have input types.
    case variablesAreInputTypes = "VariablesAreInputTypesRule"
    /// Leaves have no selections; objects have some.
    case scalarLeafs = "ScalarLeafsRule"
    /// Selected fields exist on their type.
    case fieldsOnCorrectType = "FieldsOnCorrectTypeRule"
    /// Fragment names are unique.
    case uniqueFragmentNames = "UniqueFragmentNamesRule"
    /// Spread fragments are defined.
    case knownFragmentNames = "KnownFragmentNamesRule"
    /// Every fragment is used.
    case noUnusedFragments = "NoUnusedFragmentsRule"
    /// A fragment is spread only where its type can apply.
    case possibleFragmentSpreads = "PossibleFragmentSpreadsRule"
    /// Fragments do not spread themselves.
    case noFragmentCycles = "NoFragmentCyclesRule"
    /// Variable names are unique.
    case uniqueVariableNames = "UniqueVariableNamesRule"
    /// Every variable used is defined.
    case noUndefinedVariables = "NoUndefinedVariablesRule"
    /// Every variable defined is used.
    case noUnusedVariables = "NoUnusedVariablesRule"
    /// Directives exist and are used where allowed.
    case knownDirectives = "KnownDirectivesRule"
    /// A non-repeatable directive appears once per location.
    case uniqueDirectivesPerLocation = "UniqueDirectivesPerLocationRule"
    /// Arguments exist on their field or directive.
    case knownArgumentNames = "KnownArgumentNamesRule"
    /// Argument names are unique.
    case uniqueArgumentNames = "UniqueArgumentNamesRule"
    /// Literal values fit the type expected where they are written.
    case valuesOfCorrectType = "ValuesOfCorrectTypeRule"
    /// Required arguments are given.
    case providedRequiredArguments = "ProvidedRequiredArgumentsRule"
    /// Variables are used only where their type is allowed.
    case variablesInAllowedPosition = "VariablesInAllowedPositionRule"
    /// Fields with the same response name can be merged.
    case overlappingFieldsCanBeMerged = "OverlappingFieldsCanBeMergedRule"
    /// Input object field names are unique.
    case uniqueInputFieldNames = "UniqueInputFieldNamesRule"
    /// Introspection queries do not nest list fields too deeply (graphql-js 16.9's addition).
    case maxIntrospectionDepth = "MaxIntrospectionDepthRule"
    /// Not in the specification: an operation, with its fragments expanded, selects a bounded number
    /// of fields and nests a bounded number of levels (see ``Validator/Limits``).
    case selectionLimits = "SelectionLimitsRule"

    /// The specification's rules (and graphql-js's introspection depth limit), in graphql-js order.
    public static let specified: [ValidationRule] = allCases.filter { $0 != .selectionLimits }

    /// The rule's name as graphql-js exports it, such as `FieldsOnCorrectTypeRule`.
    public var name: String { rawValue }

    /// The section of the GraphQL specification (October 2021) the rule checks.
    public var specificationURL: String {
        let base = "https://spec.graphql.org/October2021/#sec-"
        switch self {
        case .executableDefinitions: return base + "Executable-Definitions"
        case .uniqueOperationNames: return base + "Operation-Name-Uniqueness"
        case .loneAnonymousOperation: return base + "Lone-Anonymous-Operation"
        case .singleFieldSubscriptions: return base + "Single-root-field"
        case .knownTypeNames: return base + "Fragment-Spread-Type-Existence"
        case .fragmentsOnCompositeTypes: return base + "Fragments-On-Composite-Types"
        case .variablesAreInputTypes: return base + "Variables-Are-Input-Types"
        case .scalarLeafs: return base + "Leaf-Field-Selections"
        case .fieldsOnCorrectType: return base + "Field-Selections"
        case .uniqueFragmentNames: return base + "Fragment-Name-Uniqueness"
        case .knownFragmentNames: return base + "Fragment-spread-target-defined"
        case .noUnusedFragments: return base + "Fragments-Must-Be-Used"
        case .possibleFragmentSpreads: return base + "Fragment-spread-is-possible"
        case .noFragmentCycles: return base + "Fragment-spreads-must-not-form-cycles"
        case .uniqueVariableNames: return base + "Variable-Uniqueness"
        case .noUndefinedVariables: return base + "All-Variable-Uses-Defined"
        case .noUnusedVariables: return base + "All-Variables-Used"
        case .knownDirectives: return base + "Directives-Are-Defined"
        case .uniqueDirectivesPerLocation: return base + "Directives-Are-Unique-Per-Location"
        case .knownArgumentNames: return base + "Argument-Names"
        case .uniqueArgumentNames: return base + "Argument-Uniqueness"
        case .valuesOfCorrectType: return base + "Values-of-Correct-Type"
        case .providedRequiredArguments: return base + "Required-Arguments"
        case .variablesInAllowedPosition: return base + "All-Variable-Usages-are-Allowed"
        case .overlappingFieldsCanBeMerged: return base + "Field-Selection-Merging"
        case .uniqueInputFieldNames: return base + "Input-Object-Field-Uniqueness"
        case .maxIntrospectionDepth: return base + "Introspection"
        case .selectionLimits: return base + "Validation"
        }
    }

    /// The rule's bit in a ``RuleSet``.
    @inline(__always)
    var bit: UInt32 { 1 << ordinal }

    private var ordinal: UInt32 {
        switch self {
        case .executableDefinitions: 0
        case .uniqueOperationNames: 1
        case .loneAnonymousOperation: 2
        case .singleFieldSubscriptions: 3
        case .knownTypeNames: 4
        case .fragmentsOnCompositeTypes: 5
        case .variablesAreInputTypes: 6
        case .scalarLeafs: 7
        case .fieldsOnCorrectType: 8
        case .uniqueFragmentNames: 9
        case .knownFragmentNames: 10
        case .noUnusedFragments: 11
        case .possibleFragmentSpreads: 12
        case .noFragmentCycles: 13
        case .uniqueVariableNames: 14
        case .noUndefinedVariables: 15
        case .noUnusedVariables: 16
        case .knownDirectives: 17
        case .uniqueDirectivesPerLocation: 18
        case .knownArgumentNames: 19
        case .uniqueArgumentNames: 20
        case .valuesOfCorrectType: 21
        case .providedRequiredArguments: 22
        case .variablesInAllowedPosition: 23
        case .overlappingFieldsCanBeMerged: 24
        case .uniqueInputFieldNames: 25
        case .maxIntrospectionDepth: 26
        case .selectionLimits: 27
        }
    }
}

/// A set of rules as a bit mask, so that asking whether a rule is on costs one `and`.
struct RuleSet: Sendable, Hashable {
    var mask: UInt32

    init(_ rules: some Sequence<ValidationRule>) {
        mask = rules.reduce(0) { $0 | $1.bit }
    }

    @inline(__always)
    func contains(_ rule: ValidationRule) -> Bool { mask & rule.bit != 0 }

    mutating func remove(_ rule: ValidationRule) { mask &= ~rule.bit }
}
