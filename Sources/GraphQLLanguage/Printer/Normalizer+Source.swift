extension Normalizer {
    /// Normalizes one operation straight from source text: the same bytes as parsing the text and
    /// normalizing the document with ``normalize(_:operationName:)``, and the same errors, in a
    /// fraction of the time.
    ///
    /// Executable documents take a fast route that builds no syntax tree: one pass reads the
    /// tokens and checks the grammar as ``Parser`` does, a second writes the selected operation
    /// and the fragments it uses straight from the tokens (see `ExecutableScanner` and
    /// `TokenWriter`). Anything that route does not handle (a syntax error, an exceeded limit, a
    /// type-system definition or description, an operation that cannot be selected, more than 64
    /// definitions) goes through the parser and the syntax-tree normalizer, so results and errors
    /// are always theirs.
    ///
    /// ```swift
    /// let key = try Normalizer.normalize(Source(fileText, name: "Queries/GetTrack.graphql"))
    /// print(key.text)
    /// // query GetTrack($id:ID!){track(id:$id){...TrackFields}}fragment TrackFields on Track{id title}
    /// ```
    /// - Parameters:
    ///   - source: The document's text and name.
    ///   - operationName: The operation to select; `nil` selects the only one.
    ///   - limits: The bounds the parser enforces; ``Limits/operations`` by default.
    /// - Returns: The normalized text, the operation's kind and name, and the fragments used.
    /// - Throws: ``NormalizationError/syntax(_:)`` with the parser's error when the text does not
    ///   parse; ``NormalizationError/selection(_:)`` with ``normalize(_:operationName:)``'s error
    ///   when the operation cannot be selected or a fragment it uses is missing or defined twice.
    public static func normalize(
        _ source: Source, operationName: String? = nil, limits: Limits = .operations
    ) throws(NormalizationError) -> NormalizedText {
        let fast = source.bytes.withUnsafeBufferPointer { bytes in
            normalizeTokens(bytes, operationName: operationName, limits: limits)
        }
        if let fast { return fast }
        let document: Document
        do throws(GraphQLSyntaxError) {
            document = try Parser.parse(source, limits: limits)
        } catch {
            throw .syntax(error)
        }
        do throws(OperationSelectionError) {
            return NormalizedText(try normalize(document, operationName: operationName))
        } catch {
            throw .selection(error)
        }
    }

    /// The fast route of ``normalize(_:operationName:limits:)``, or `nil` when the text needs the
    /// parser's.
    static func normalizeTokens(
        _ bytes: UnsafeBufferPointer<UInt8>, operationName: String?, limits: Limits
    ) -> NormalizedText? {
        guard bytes.count <= min(limits.maxBytes, Int(UInt32.max) - 1) else { return nil }
        var scanner = ExecutableScanner(bytes: bytes, limits: limits)
        do throws(ParseFailure) {
            try scanner.scanDocument()
        } catch {
            return nil
        }
        guard scanner.definitions.count <= 64, let operation = scanner.selectOperation(named: operationName),
            let fragments = scanner.usedFragments(of: operation)
        else { return nil }
        let definition = scanner.definitions[operation]
        var writer = TokenWriter(bytes: bytes, capacity: bytes.count)
        writer.write(definition, tokens: scanner.tokens)
        var fragmentNames: [String] = []
        if !fragments.isEmpty {
            fragmentNames.reserveCapacity(fragments.count)
            for fragment in fragments {
                let fragmentDefinition = scanner.definitions[fragment]
                writer.write(fragmentDefinition, tokens: scanner.tokens)
                fragmentNames.append(scanner.nameText(of: fragmentDefinition))
            }
        }
        let operationType: OperationType =
            switch definition.kind {
            case 0: .query
            case 1: .mutation
            default: .subscription
            }
        return NormalizedText(
            bytes: writer.out.bytes, operationType: operationType,
            operationName: definition.nameToken < 0 ? nil : operationName ?? scanner.nameText(of: definition),
            fragmentNames: fragmentNames)
    }
}
