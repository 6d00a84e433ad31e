import GraphQLLanguage

extension GraphQLOperation {
    /// Makes the operation of a generated operation type from its definition, without parsing:
    /// the name, kind, texts and hashes are the definition's, and the cache key is made from
    /// its normalized text and name exactly as for the same operation loaded from its file, so
    /// the two share cache entries.
    ///
    /// ```swift
    /// let getTrack = GraphQLOperation(definition: GetTrackQuery.definition)
    /// print(getTrack)   // query GetTrack
    /// ```
    ///
    /// Such an operation always sends `definition.text` (the text the generated `Data` types
    /// were made for), even with `GraphQLSettings.sendsNormalizedText`. It has no schema and no
    /// location; its `selection` is parsed from the text only when asked for. Generated types
    /// keep one such operation each (`GraphQLOperationType.operation`); make one only for a
    /// definition that has no type.
    ///
    /// - Parameter definition: the definition, as the generator wrote it.
    public init(definition: GraphQLOperationDefinition) {
        name = definition.name
        kind = definition.kind
        text = definition.text
        normalizedText = definition.normalizedText
        cacheKeyOperation = CacheKey.Operation(text: definition.normalizedText, name: definition.name)
        schema = nil
        location = nil
        textHash = definition.textHash
        normalizedTextHash = definition.normalizedTextHash
        source = .deferred(DeferredSelection(definition))
    }

    /// Whether the operation was made from a generated definition (and sends its text as given).
    var isGenerated: Bool {
        if case .deferred = source { return true }
        return false
    }
}

extension GraphQLOperationDefinition {
    /// `query GetTrack`, or `anonymous query`, as `GraphQLOperation` describes itself.
    var label: String { name.map { "\(kind.rawValue) \($0)" } ?? "anonymous \(kind.rawValue)" }
}
