import Foundation

/// One stored response: the key it answers, the response itself, its freshness and validators.
///
/// Kind, name and partition come from the key's components, so they always agree with it.
public struct CacheEntry: Sendable, Hashable {
    /// The fields, shared between copies: handing an entry out of a store costs one reference,
    /// not one per field. Setting a field makes a new storage.
    private final class Storage: Sendable {
        let key: CacheKey
        let status: Int
        let headers: HTTPHeaders
        let body: Data
        let tags: [String]
        let storedAt: Date
        let expiresAt: Date?
        let etag: String?
        let lastModified: String?

        init(key: CacheKey, status: Int, headers: HTTPHeaders, body: Data, tags: [String], storedAt: Date,
             expiresAt: Date?, etag: String?, lastModified: String?) {
            self.key = key
            self.status = status
            self.headers = headers
            self.body = body
            self.tags = tags
            self.storedAt = storedAt
            self.expiresAt = expiresAt
            self.etag = etag
            self.lastModified = lastModified
        }

        func with(key: CacheKey? = nil, status: Int? = nil, headers: HTTPHeaders? = nil, body: Data? = nil,
                  tags: [String]? = nil, storedAt: Date? = nil, expiresAt: Date?? = nil, etag: String?? = nil,
                  lastModified: String?? = nil) -> Storage {
            Storage(key: key ?? self.key, status: status ?? self.status, headers: headers ?? self.headers,
                    body: body ?? self.body, tags: tags ?? self.tags, storedAt: storedAt ?? self.storedAt,
                    expiresAt: expiresAt ?? self.expiresAt, etag: etag ?? self.etag,
                    lastModified: lastModified ?? self.lastModified)
        }
    }

    private var storage: Storage

    /// The key the entry answers.
    public var key: CacheKey {
        get { storage.key }
        set { storage = storage.with(key: newValue) }
    }
    /// The response status.
    public var status: Int {
        get { storage.status }
        set { storage = storage.with(status: newValue) }
    }
    /// The response headers.
    public var headers: HTTPHeaders {
        get { storage.headers }
        set { storage = storage.with(headers: newValue) }
    }
    /// The response body.
    public var body: Data {
        get { storage.body }
        set { storage = storage.with(body: newValue) }
    }
    /// Labels for invalidation (`remove(.tag("Track:42"))`), sorted, without repeats.
    public var tags: [String] {
        get { storage.tags }
        set { storage = storage.with(tags: CacheEntry.normalized(newValue)) }
    }
    /// When the response was stored (or last refreshed by a revalidation).
    public var storedAt: Date {
        get { storage.storedAt }
        set { storage = storage.with(storedAt: newValue) }
    }
    /// When the entry stops being fresh; `nil` never expires. Expired entries are still returned
    /// (as stale hits) so that they can be revalidated or serve when the network fails.
    public var expiresAt: Date? {
        get { storage.expiresAt }
        set { storage = storage.with(expiresAt: .some(newValue)) }
    }
    /// The response's `ETag`, for revalidation.
    public var etag: String? {
        get { storage.etag }
        set { storage = storage.with(etag: .some(newValue)) }
    }
    /// The response's `Last-Modified`, for revalidation.
    public var lastModified: String? {
        get { storage.lastModified }
        set { storage = storage.with(lastModified: .some(newValue)) }
    }

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
        storage = Storage(key: key, status: status, headers: headers, body: body, tags: CacheEntry.normalized(tags),
                          storedAt: storedAt, expiresAt: expiresAt, etag: etag, lastModified: lastModified)
    }

    private static func normalized(_ tags: [String]) -> [String] {
        tags.count < 2 ? tags : Array(Set(tags)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
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

    /// Entries are equal when every field and every key component is.
    public static func == (lhs: CacheEntry, rhs: CacheEntry) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.key == rhs.key && lhs.key.components == rhs.key.components && lhs.status == rhs.status
            && lhs.headers == rhs.headers && lhs.body == rhs.body && lhs.tags == rhs.tags
            && lhs.storedAt == rhs.storedAt && lhs.expiresAt == rhs.expiresAt && lhs.etag == rhs.etag
            && lhs.lastModified == rhs.lastModified
    }

    /// Hashes the key, status, body and storage time.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(status)
        hasher.combine(body)
        hasher.combine(storedAt)
    }

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
