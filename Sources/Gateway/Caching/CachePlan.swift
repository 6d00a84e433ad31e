import Foundation

/// What the response cache decided about one request before it is sent: its key and policy.
/// A reference: the steps after step 2 share one plan instead of copying its fields.
final class CachePlan: Sendable {
    /// The key to look up (a REST key includes the `Vary` fields known for its URL).
    let key: CacheKey
    /// The request's policy.
    let policy: CachePolicy
    /// The request's settings (time to live, tags).
    let settings: CacheSettings
    /// Whose data the response is.
    let partition: CachePartition
    /// For a REST request: its full URL and header fields (the `Vary` fields are taken from
    /// these when the response is stored); `nil` for GraphQL.
    let rest: (url: URL, headers: HTTPHeaders)?
    /// For a REST request: the `Vary` names `key` was made with (those last seen for its URL).
    let varyNames: [String]

    init(key: CacheKey, policy: CachePolicy, settings: CacheSettings, partition: CachePartition,
         rest: (url: URL, headers: HTTPHeaders)?, varyNames: [String] = []) {
        self.key = key
        self.policy = policy
        self.settings = settings
        self.partition = partition
        self.rest = rest
        self.varyNames = varyNames
    }

    var isGraphQL: Bool { rest == nil }
}

extension ResponseCache {
    /// The plan of a request that may be cached, or `nil` when it may not (a mutation, an
    /// upload, a method other than GET, a GET with a body, a request whose partition cannot be
    /// told, a request that says `Cache-Control: no-store`).
    ///
    /// A request that says `Cache-Control: no-cache` (or `Pragma: no-cache`) is not answered from
    /// the cache under `cacheFirst`: it goes to the network, and its response may be stored.
    func plan(_ prepared: PreparedRequest, auth: any AuthStage, encoding: ParameterEncodingContext)
        async -> CachePlan?
    {
        guard let draft = PlanDraft(prepared, defaultPolicy: defaultPolicy, encoding: encoding),
              let partition = await partition(of: prepared, auth: auth)
        else { return nil }
        guard let name = draft.normalizedURL else { return draft.plan(partition: partition, vary: []) }
        // What is known of the URL: in memory, else from its stored entries.
        let memo: RESTURLMemo
        if let known = state.withLock({ $0.restURLs[name] }) {
            memo = known
        } else {
            memo = await storedMemo(for: name)
        }
        return draft.plan(partition: partition, vary: memo.varyNames) { components in
            // The same components as the URL's last key: that key, without hashing again.
            if let last = memo.lastKey, last.components == components { return last }
            let key = CacheKey(components: components)
            remember(lastKey: key, for: name, varyNames: memo.varyNames)
            return key
        }
    }

    /// Whose data the response is: for a request that requires authentication, the partition
    /// the auth stage names (with a token store, the credential's subject; `nil`, not cached,
    /// when the stage cannot tell); otherwise a partition named by the request's own
    /// `Authorization` field's SHA-256 when it has one, else anonymous.
    private func partition(of prepared: PreparedRequest, auth: any AuthStage) async -> CachePartition? {
        if prepared.requiresAuthentication { return await auth.cachePartition(for: prepared) }
        if let authorization = prepared.headers["Authorization"] { return .credential("authorization", authorization) }
        return .anonymous
    }

    /// The URL a GET goes to once its parameters are encoded; `nil` when they add a body or fail.
    static func finalURL(of prepared: PreparedRequest, encoding: ParameterEncodingContext) -> URL? {
        guard !prepared.parameters.isEmpty else { return prepared.url }
        var request = HTTPRequest(method: prepared.method, url: prepared.url, headers: prepared.headers,
                                  deadlineOffset: nil)
        do {
            for parameters in prepared.parameters {
                try parameters.encoder.encode(parameters.value, into: &request, context: encoding)
            }
        } catch {
            return nil
        }
        guard request.body == nil else {
            request.removeTemporaryBody()
            return nil
        }
        return request.url
    }

    /// What the stored entries of a REST URL that has no memo in memory yet tell of it: the
    /// header names its responses vary by, as last seen. The memo is kept for the next request.
    private func storedMemo(for name: String) async -> RESTURLMemo {
        let records = (try? await store.list(.operation(name), includeBodies: false)) ?? []
        let names = records.first.map { $0.entry.key.components.vary.map(\.name) } ?? []
        remember(varyNames: names, for: name)
        return RESTURLMemo(varyNames: names)
    }

    /// Remembers the `Vary` names of a URL (normalized), keeping the memo bounded; new names
    /// forget the URL's last key.
    func remember(varyNames names: [String], for name: String) {
        state.withLock { state in
            if state.restURLs[name]?.varyNames == names { return }
            if state.restURLs.count >= 10_000, state.restURLs[name] == nil { state.restURLs = [:] }
            state.restURLs[name] = RESTURLMemo(varyNames: names)
        }
    }

    /// Remembers the last key made for a URL (normalized), keeping the memo bounded.
    private func remember(lastKey key: CacheKey, for name: String, varyNames names: [String]) {
        state.withLock { state in
            if state.restURLs.count >= 10_000, state.restURLs[name] == nil { state.restURLs = [:] }
            state.restURLs[name] = RESTURLMemo(varyNames: state.restURLs[name]?.varyNames ?? names, lastKey: key)
        }
    }
}

/// What the response cache keeps of one REST URL (normalized) between requests.
///
/// A key's digest is a function of its components alone, so a request whose components equal
/// those of `lastKey` (same method, URL, `Vary` values and partition) takes that key as it is:
/// the usual run of requests to one URL hashes once, and the digest, the one stores save, does
/// not change.
///
/// Immutable and held by reference: every request to the URL reads it under the cache's lock,
/// and a reference is one retain there, where a value would copy its key's fields; a change
/// puts a new memo in its place.
final class RESTURLMemo: Sendable {
    /// The header names the URL's responses vary by, as last seen.
    let varyNames: [String]
    /// The last key made for the URL.
    let lastKey: CacheKey?

    init(varyNames: [String], lastKey: CacheKey? = nil) {
        self.varyNames = varyNames
        self.lastKey = lastKey
    }
}

/// A cache plan before its partition and `Vary` names are known.
private struct PlanDraft {
    let policy: CachePolicy
    let settings: CacheSettings
    let headers: HTTPHeaders
    /// The URL a REST request goes to; `nil` for GraphQL.
    let url: URL?
    /// `url` in normal form (`CacheKeyComponents.normalizedURL`); `nil` for GraphQL.
    let normalizedURL: String?
    let graphQL: GraphQLCacheIdentity?

    /// `nil` when the request may not be cached (see `ResponseCache.plan`).
    init?(_ prepared: PreparedRequest, defaultPolicy: CachePolicy, encoding: ParameterEncodingContext) {
        var policy = prepared.cache.policy ?? defaultPolicy
        if prepared.headers.contains("Cache-Control") || prepared.headers.contains("Pragma") {
            let asked = HTTPCacheRules(prepared.headers)
            if asked.noStore { return nil }
            if asked.noCache, policy == .cacheFirst { policy = .networkOnly }
        }
        if let graphQL = prepared.graphQLCache {
            guard graphQL.isQuery else { return nil }
            url = nil
            normalizedURL = nil
        } else {
            guard prepared.method == .get, let url = ResponseCache.finalURL(of: prepared, encoding: encoding) else {
                return nil
            }
            self.url = url
            normalizedURL = CacheKeyComponents.normalizedURL(url)
        }
        self.policy = policy
        settings = prepared.cache
        headers = prepared.headers
        graphQL = prepared.graphQLCache
    }

    /// The plan for `partition`; `nil` when the responses vary by `*`. A REST key is `key` of
    /// its components.
    func plan(partition: CachePartition, vary names: [String],
              key: (CacheKeyComponents) -> CacheKey = { CacheKey(components: $0) }) -> CachePlan? {
        if let graphQL {
            return CachePlan(key: graphQL.key(partition: partition), policy: policy, settings: settings,
                             partition: partition, rest: nil)
        }
        guard let url, let normalizedURL, !names.contains("*") else { return nil }
        let key = key(.rest(method: .get, normalizedURL: normalizedURL, partition: partition, vary: names,
                            requestHeaders: headers))
        return CachePlan(key: key, policy: policy, settings: settings, partition: partition, rest: (url, headers),
                         varyNames: names)
    }
}
