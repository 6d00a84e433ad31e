import GraphQLLanguage

/// One GraphQL operation ready to send: the operation with only the fragments it uses, its
/// printed text, its normalized text and the per-operation part of its cache key, all computed
/// once when it is made.
///
/// Operations usually come from an `OperationStore`; one can also be made from text, or from
/// the definition of a generated operation type (see `init(definition:)`), which parses nothing:
///
/// ```swift
/// let operations = try OperationStore(directory: queriesURL)
/// let getTrack = try operations["GetTrack"]
/// let ping = try GraphQLOperation("query Ping { ping }")
/// let generated = GraphQLOperation(definition: GetTrackQuery.definition)
/// ```
public struct GraphQLOperation: Sendable, CustomStringConvertible {
    /// The operation's name; `nil` for an anonymous operation.
    public let name: String?
    /// Query, mutation or subscription.
    public let kind: OperationType
    /// The operation and the fragments it uses, directly or through other fragments.
    ///
    /// An operation made from a generated definition parses its text the first time this is
    /// asked for (sending it never asks); a text that does not parse, which only a hand-edited
    /// definition has, gives the operation with no selections and no variables (and
    /// `checkedVariables(_:uploads:)` reports the parse error).
    public var selection: OperationSelection { source.selection }
    /// The operation and its fragments, printed: the `query` text a request sends by default.
    public let text: String
    /// The normalized (compact, canonical) text that cache keys use.
    public let normalizedText: String
    /// The per-operation part of the cache key, hashed once.
    public let cacheKeyOperation: CacheKey.Operation
    /// The schema the operation was checked against, if any; variable checks then also cover
    /// enums and input objects.
    public let schema: Schema?
    /// Where the operation is defined (file, line and column), when it came from a source.
    public let location: SourceLocation?
    /// The SHA-256 hex digest of `text` (for persisted queries).
    let textHash: String
    /// The SHA-256 hex digest of `normalizedText`.
    let normalizedTextHash: String
    /// The parsed selection, or the generated definition it is parsed from when asked for.
    let source: OperationSource

    /// Picks an operation out of a parsed document, with the fragments it uses.
    ///
    /// - Parameters:
    ///   - document: a document holding the operation and the fragments it uses (others are ignored).
    ///   - operationName: the operation; `nil` picks the document's only operation.
    ///   - schema: a schema the document is valid against; only recorded here (see
    ///     `init(_:operationName:schema:)` and `OperationStore` for validation).
    /// - Throws: `GatewayError` of kind `.unknownOperation` when no operation has the name, or
    ///   `.invalidOperation` when the operation cannot be picked (several and no name, a missing
    ///   or repeated fragment).
    public init(document: Document, operationName: String? = nil, schema: Schema? = nil) throws {
        let selection: OperationSelection
        do {
            selection = try OperationSelection(document: document, operationName: operationName)
        } catch {
            throw Self.selectionFailure(error, document: document)
        }
        let location = Self.location(of: selection.operation, in: document)
        try self.init(selection: selection, schema: schema, location: location)
    }

    /// Parses `text` and picks an operation out of it; with a schema, validates the document
    /// first and reports every problem at once.
    ///
    /// - Parameters:
    ///   - text: GraphQL text holding the operation and its fragments.
    ///   - operationName: the operation; `nil` picks the only one.
    ///   - schema: validates the document against it when given.
    ///   - sourceName: the name diagnostics show (a file path).
    /// - Throws: `GatewayError` of kind `.invalidOperation` with every diagnostic, or
    ///   `.unknownOperation`.
    public init(_ text: String, operationName: String? = nil, schema: Schema? = nil,
                sourceName: String = "GraphQL operation") throws {
        let source = Source(text, name: sourceName)
        let document: Document
        do {
            document = try Parser.parse(source, limits: .operations)
        } catch {
            throw GatewayError.invalidOperation([error.diagnostic], what: sourceName)
        }
        if let schema {
            let problems = Validator(schema: schema).validate(document).filter { $0.severity == .error }
            if !problems.isEmpty { throw GatewayError.invalidOperation(problems, what: sourceName) }
        }
        try self.init(document: document, operationName: operationName, schema: schema)
    }

    /// Makes an operation from a selection already picked.
    ///
    /// - Throws: `GatewayError` of kind `.invalidOperation` when the selection lacks a
    ///   fragment its operation uses.
    public init(selection: OperationSelection, schema: Schema? = nil, location: SourceLocation? = nil) throws {
        let normalized: String
        do {
            normalized = try Normalizer.normalizedText(of: selection)
        } catch {
            throw GatewayError(.invalidOperation, error.description, fix: "define the fragment next to the operation")
        }
        self.source = .parsed(selection)
        self.name = selection.operation.name?.value
        self.kind = selection.operation.operation
        self.text = Printer.print(selection)
        self.normalizedText = normalized
        self.cacheKeyOperation = CacheKey.Operation(text: normalized, name: name)
        self.schema = schema
        self.location = location
        self.textHash = SHA256.hexDigest(text)
        self.normalizedTextHash = SHA256.hexDigest(normalized)
    }

    /// The operation's variable definitions, in the order written.
    public var variableDefinitions: [VariableDefinition] { selection.variableDefinitions }

    /// The names of the variables the operation declares, without `$`.
    public var variableNames: [String] { variableDefinitions.map(\.variable.name.value) }

    /// The names of the fragments the operation uses, sorted.
    public var fragmentNames: [String] { selection.fragmentNames }

    /// `query GetTrack`, or `anonymous query`.
    public var description: String { name.map { "\(kind.rawValue) \($0)" } ?? "anonymous \(kind.rawValue)" }

    /// Checks `variables` against the variable definitions and applies declared defaults.
    ///
    /// - Parameters:
    ///   - variables: the values given.
    ///   - uploads: variable paths (`image`, `files.0`) that hold files sent alongside; their
    ///     values are the `null` placeholders of the multipart request spec.
    /// - Returns: the variables to send, in the order of the definitions.
    /// - Throws: `GatewayError` of kind `.invalidVariables` listing every problem, each naming
    ///   its variable (see `GatewayError.variableErrors`).
    public func checkedVariables(_ variables: GraphQLVariables, uploads: Set<String> = []) throws -> JSONObject {
        try source.checkParses()
        var checker = GraphQLVariableChecker(operation: self, uploads: uploads)
        let result = checker.check(variables.object)
        guard checker.problems.isEmpty else {
            let problems = checker.problems
            let list = problems.map { "- " + $0.message }.joined(separator: "\n")
            let declared = variableDefinitions.isEmpty ? "no variables"
                : variableDefinitions.map { "$\($0.variable.name.value): \(Printer.print($0.type))" }
                    .joined(separator: ", ")
            throw GatewayError(
                .invalidVariables,
                "\(problems.count) variable problem\(problems.count == 1 ? "" : "s") in \(description); "
                    + "nothing was sent:\n\(list)",
                fix: "\(description) declares \(declared)", endpoint: description,
                underlying: GraphQLVariableErrors(problems))
        }
        return result
    }

    static func location(of operation: OperationDefinition, in document: Document) -> SourceLocation? {
        guard let source = document.source else { return nil }
        return source.location(at: operation.range.start)
    }

    static func selectionFailure(_ error: OperationSelectionError, document: Document) -> GatewayError {
        switch error {
        case .unknownOperation(let name, let available):
            let names = available.compactMap { $0 }
            let near = NameSuggestions.near(name, in: names)
            let hint = near.isEmpty ? "" : "; did you mean \(near.map { "\"\($0)\"" }.joined(separator: ", "))?"
            return GatewayError(
                .unknownOperation, "no operation named \"\(name)\"\(hint)",
                fix: names.isEmpty ? "the document defines no named operation"
                    : "the document defines " + names.map { "\"\($0)\"" }.joined(separator: ", "))
        case .operationNameRequired:
            return GatewayError(.invalidOperation, error.description, fix: "name the operation to send")
        default:
            return GatewayError(.invalidOperation, error.description)
        }
    }
}
