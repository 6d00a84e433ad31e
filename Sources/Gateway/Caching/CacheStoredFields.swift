/// An entry's fields as the databases store them (the SQLite store's columns, the Redis store's
/// hash fields), encoded once: header text, tags and `Vary` as `CacheStorageCoding` writes them,
/// and the checksum of the stored status, header text and body.
package struct CacheStoredFields: Sendable {
    /// The entry.
    package let entry: CacheEntry
    /// What the entry counts against a byte limit (`CacheEntry.byteCost`).
    package let size: Int
    /// The name statistics count it under.
    package let statisticsName: String
    /// `CacheStorageCoding.encodeHeaders`.
    package let headers: String
    /// `CacheStorageCoding.encodeTags`.
    package let tags: String
    /// `CacheStorageCoding.encodeVary` of the key's `Vary` fields.
    package let vary: String
    /// `CacheChecksum.of(status:headers:body:)` of the stored status, header text and body.
    package let checksum: UInt64

    /// Encodes `entry`.
    package init(_ entry: CacheEntry) {
        self.entry = entry
        size = entry.byteCost
        statisticsName = entry.key.components.statisticsName
        headers = CacheStorageCoding.encodeHeaders(entry.headers)
        tags = CacheStorageCoding.encodeTags(entry.tags)
        vary = CacheStorageCoding.encodeVary(entry.key.components.vary)
        checksum = CacheChecksum.of(status: entry.status, headers: headers, body: entry.body)
    }

    /// The checksum as stored: the same 64 bits as a signed integer (SQLite's integer type).
    package var storedChecksum: Int64 { Int64(bitPattern: checksum) }

    /// Whether a stored status, header text and body match a stored checksum.
    package static func matches(status: Int, headers: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer,
                                 storedChecksum: Int64) -> Bool {
        CacheChecksum.of(status: status, headers: headers, body: body) == UInt64(bitPattern: storedChecksum)
    }

    /// The key components stored with an entry, read back: GraphQL's operation, name, variables
    /// and endpoint, or REST's method, URL and `Vary` text; the partition's subject.
    package static func components(kind: CacheKeyComponents.Kind, partitionSubject: String?, operation: String?,
                                   operationName: String?, variables: String?, method: String?, endpoint: String,
                                   vary: String?) -> CacheKeyComponents {
        let partition = CachePartition(subject: partitionSubject)
        switch kind {
        case .graphql:
            return .graphQL(operation: operation ?? "", operationName: operationName,
                            canonicalVariables: variables ?? "{}", endpoint: endpoint, partition: partition)
        case .rest:
            return .rest(method: method ?? "GET", url: endpoint, vary: CacheStorageCoding.decodeVary(vary ?? "[]"),
                         partition: partition)
        }
    }
}
