import Foundation

/// One stored response: the key it answers, the response itself, its freshness and validators.
///
/// Kind, name and partition come from the key's components, so they always agree with it.
public struct CacheEntry: Sendable, Hashable {
    /// The key the entry answers.
    public var key: CacheKey
    /// The response status.
    public var status: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The response body.
    public var body: Data
    /// Labels for invalidation (`remove(.tag("Track:42"))`), sorted, without repeats.
    public var tags: [String]
    /// When the response was stored (or last refreshed by a revalidation).
    public var storedAt: Date
    /// When the entry stops being fresh; `nil` never expires. Expired entries are still returned
    /// (as stale hits) so that they can be revalidated or serve when the network fails.
    public var expiresAt: Date?
    /// The response's `ETag`, for revalidation.
    public var etag: String?
    /// The response's `Last-Modified`, for revalidation.
    public var lastModified: String?

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - key: the key the entry answers.
    ///   - status: the response status.
    ///   - headers: the response headers.
    ///   - body: the response body.
    ///   - tags: labels for invalidation; sorted and de-duplicated here.
    ///   - storedAt: when the response was stored.
    ///   - expiresAt: when it stops being fresh; `nil` never expires.
    ///   - etag: the `ETag` validator.
    ///   - lastModified: the `Last-Modified` validator.
    public init(key: CacheKey, status: Int = 200, headers: HTTPHeaders = [:], body: Data, tags: [String] = [],
                storedAt: Date, expiresAt: Date?, etag: String? = nil, lastModified: String? = nil) {
        self.key = key
        self.status = status
        self.headers = headers
        self.body = body
        self.tags = tags.count < 2 ? tags : Array(Set(tags)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        self.storedAt = storedAt
        self.expiresAt = expiresAt
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Creates an entry from a response: its status, headers, body, and the validators from its
    /// `ETag` and `Last-Modified` headers.
    ///
    /// - Parameters:
    ///   - key: the key the entry answers.
    ///   - response: the response to store.
    ///   - tags: labels for invalidation.
    ///   - storedAt: when the response was stored.
    ///   - expiresAt: when it stops being fresh; `nil` never expires.
    public init(key: CacheKey, response: HTTPResponse, tags: [String] = [], storedAt: Date, expiresAt: Date?) {
        self.init(key: key, status: response.status, headers: response.headers, body: response.body, tags: tags,
                  storedAt: storedAt, expiresAt: expiresAt, etag: response.headers["ETag"],
                  lastModified: response.headers["Last-Modified"])
    }

    /// GraphQL or REST.
    public var kind: CacheKeyComponents.Kind { key.components.kind }
    /// The operation name (GraphQL) or URL (REST).
    public var name: String { key.components.name }
    /// Whose data it is.
    public var partition: CachePartition { key.components.partition }

    /// Whether the entry is fresh at `now` (it has no expiry, or the expiry is later).
    public func isFresh(at now: Date) -> Bool {
        guard let expiresAt else { return true }
        return expiresAt > now
    }

    /// The response the entry holds.
    public var response: HTTPResponse { HTTPResponse(status: status, headers: headers, body: body) }

    /// What the entry counts against a store's byte limit: body, headers, components, tags and a
    /// fixed overhead for the bookkeeping around it.
    public var byteCost: Int {
        var total = 256 + body.count
        for field in headers { total += field.name.utf8.count + field.value.utf8.count + 4 }
        for component in key.components.explained {
            total += component.name.utf8.count + (component.value?.utf8.count ?? 0)
        }
        for tag in tags { total += tag.utf8.count + 3 }
        total += (etag?.utf8.count ?? 0) + (lastModified?.utf8.count ?? 0)
        return total
    }
}
