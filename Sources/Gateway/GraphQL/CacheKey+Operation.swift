import GraphQLLanguage

extension CacheKey {
    /// The per-operation part of GraphQL cache keys, hashed once when the operation is loaded.
    ///
    /// The operation text is usually the longest component; hashing it again for every request
    /// would cost microseconds. An `Operation` keeps the SHA-256 state after the operation's
    /// components, and `key(variables:endpoint:partition:)` continues from a copy of it. The result
    /// is exactly the key `CacheKey.graphQL` computes from scratch.
    public struct Operation: Sendable {
        /// The normalized operation text.
        public let text: String
        /// The operation name, or `nil` for an anonymous operation.
        public let name: String?
        private let prefix: CacheKeyHasher

        /// Hashes the per-operation components.
        ///
        /// - Parameters:
        ///   - text: the normalized operation text.
        ///   - name: the operation name, or `nil`.
        public init(text: String, name: String?) {
            self.text = text
            self.name = name
            var hasher = CacheKeyHasher()
            hasher.add(CacheKeyComponents.Kind.graphql.rawValue)
            hasher.add(text)
            hasher.add(name)
            prefix = hasher
        }

        /// The key of one request of this operation.
        ///
        /// - Parameters:
        ///   - variables: the variables with declared defaults applied; `nil` means none, like `{}`.
        ///   - endpoint: the GraphQL endpoint URL.
        ///   - partition: whose data this is.
        public func key(variables: JSONValue?, endpoint: String, partition: CachePartition) -> CacheKey {
            guard let variables else {
                return key(canonicalVariables: "{}", endpoint: endpoint, partition: partition)
            }
            let bytes = CanonicalJSONWriter.bytes(variables)
            var hasher = prefix
            bytes.withUnsafeBytes { hasher.add(bytes: $0) }
            return finish(hasher, canonicalVariables: String(decoding: bytes, as: UTF8.self), endpoint: endpoint,
                          partition: partition)
        }

        /// The key of one request, with the variables already in canonical JSON text.
        ///
        /// - Parameters:
        ///   - canonicalVariables: the variables as `JSONValue.serialized(.canonical)` writes them.
        ///   - endpoint: the GraphQL endpoint URL.
        ///   - partition: whose data this is.
        public func key(canonicalVariables: String, endpoint: String, partition: CachePartition) -> CacheKey {
            var hasher = prefix
            hasher.add(canonicalVariables)
            return finish(hasher, canonicalVariables: canonicalVariables, endpoint: endpoint, partition: partition)
        }

        /// Adds the components after the variables and makes the key.
        private func finish(_ hasher: CacheKeyHasher, canonicalVariables: String, endpoint: String,
                            partition: CachePartition) -> CacheKey {
            var hasher = hasher
            hasher.add(endpoint)
            hasher.add(partition.subject)
            let components = CacheKeyComponents.graphQL(
                operation: text, operationName: name, canonicalVariables: canonicalVariables,
                endpoint: endpoint, partition: partition)
            return CacheKey(digest: hasher.finish(), components: components)
        }
    }
}
