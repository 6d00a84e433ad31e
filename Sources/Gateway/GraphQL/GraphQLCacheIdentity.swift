import GraphQLLanguage

/// What the response cache needs to know of a GraphQL request: the per-operation part of its
/// key, its variables, its endpoint, and whether it is a query (only queries are stored).
package struct GraphQLCacheIdentity: Sendable {
    /// The per-operation part of the key.
    package var operation: CacheKey.Operation
    /// The variables as sent (checked, defaults applied).
    package var variables: JSONObject
    /// The GraphQL endpoint URL.
    package var endpoint: String
    /// Whether the operation is a query.
    package var isQuery: Bool

    /// The key for `partition`.
    package func key(partition: CachePartition) -> CacheKey {
        operation.key(variables: variables.isEmpty ? nil : .object(variables), endpoint: endpoint,
                      partition: partition)
    }
}
