/// Why ``Normalizer/normalize(_:operationName:limits:)`` could not normalize source text.
public enum NormalizationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text does not parse: exactly the error ``Parser`` throws for it.
    case syntax(GraphQLSyntaxError)
    /// The operation cannot be selected, or a fragment it uses is missing or defined twice: exactly
    /// the error ``Normalizer/normalize(_:operationName:)`` throws for the parsed document.
    case selection(OperationSelectionError)

    /// The rendered syntax error, or what is wrong with the selection and how to fix it.
    public var description: String {
        switch self {
        case .syntax(let error): error.description
        case .selection(let error): error.description
        }
    }
}
