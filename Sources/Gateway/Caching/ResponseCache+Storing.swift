import Foundation
import GraphQLLanguage

extension ResponseCache {
    /// The tag a stored GraphQL response carries for each `__typename` in its data.
    static func typeTag(_ typename: String) -> String { "type:" + typename }

    /// What step 10 does with the network's answer to a request with a plan: the response to
    /// answer with (the stored body after a `304`), the cache outcome, and the entry to write
    /// (the new response when the rules allow, or the entry a `304` confirmed, refreshed).
    ///
    /// Nothing is written here: the pipeline decodes the answer first (step 9) and writes only
    /// what decoded, with `write(_:generation:)`.
    func settlement(_ response: HTTPResponse, plan: CachePlan, entry: CacheEntry?) -> CacheSettlement {
        let now = self.now()
        if response.status == 304, let entry {
            var refreshed = entry
            let headers = HTTPCacheRules.freshened(entry.headers, with: response.headers)
            refreshed.headers = headers
            refreshed.storedAt = now
            refreshed.expiresAt = expiry(HTTPCacheRules(headers), plan: plan, now: now) ?? now
            refreshed.etag = headers["ETag"]
            refreshed.lastModified = headers["Last-Modified"]
            return CacheSettlement(answer: refreshed.response, outcome: .revalidated, entry: refreshed)
        }
        guard let stored = storable(response, plan: plan, now: now) else {
            return CacheSettlement(answer: response, outcome: .notCacheable, entry: nil)
        }
        return CacheSettlement(answer: response, outcome: plan.policy == .networkOnly ? .bypassed : .miss,
                               entry: stored)
    }

    /// Removes an entry whose body no longer decodes into the type a request asked for (it was
    /// stored for another type, or by another version of the app), with one warning.
    func evict(_ entry: CacheEntry, undecodable error: any Error) async {
        _ = try? await store.remove(.key(entry.key))
        warn(CacheWarning("a cached response of \(entry.name) no longer decodes (\(GatewayError.summary(of: error))); "
                          + "it was removed, and the request is answered as on a miss"))
    }

    /// The entry to store for `response`, or `nil` when the rules say not to.
    private func storable(_ response: HTTPResponse, plan: CachePlan, now: Date) -> CacheEntry? {
        guard let rest = plan.rest else {
            // The same header rules as REST: never `no-store` or `Vary: *`; `private` is kept,
            // in the request's partition like every entry.
            let rules = HTTPCacheRules(response.headers)
            guard response.isSuccess, !rules.noStore, !rules.varyAll, let typenames = graphQLTypenames(response)
            else { return nil }
            let ttl = plan.settings.ttl ?? defaultTTL
            return CacheEntry(key: plan.key, response: response,
                              tags: plan.settings.tags + typenames.map(Self.typeTag), storedAt: now,
                              expiresAt: ttl.map { now.addingTimeInterval($0.timeInterval) })
        }
        let rules = HTTPCacheRules(response.headers)
        guard rules.isStorable(status: response.status) else { return nil }
        // The usual case: the response varies by the names the plan's key was made with (those
        // remembered for its URL), so that key is the entry's and nothing new is remembered.
        let key: CacheKey
        if rules.vary == plan.varyNames {
            key = plan.key
        } else {
            // The plan's key holds the URL in normal form.
            remember(varyNames: rules.vary, for: plan.key.components.endpoint)
            key = CacheKey.rest(normalizedURL: plan.key.components.endpoint, partition: plan.partition,
                                vary: rules.vary, requestHeaders: rest.headers)
        }
        guard let expiresAt = expiry(rules, plan: plan, now: now) else { return nil }
        return CacheEntry(key: key, response: response, tags: plan.settings.tags, storedAt: now,
                          expiresAt: expiresAt)
    }

    /// When a REST entry stops being fresh, or `nil` when the response is not worth storing: at
    /// once for `no-cache`; else the request's TTL, the response's `max-age` or `Expires`, or the
    /// heuristic of RFC 9111 §4.2.2 (a tenth of the time since `Last-Modified`). A response that
    /// gives none of these is stored already stale when it has a validator or the policy may
    /// answer from a stale entry (`networkFirst`, `cacheAndNetwork`), and not stored otherwise.
    private func expiry(_ rules: HTTPCacheRules, plan: CachePlan, now: Date) -> Date? {
        if rules.noCache { return now }
        if let ttl = plan.settings.ttl { return now.addingTimeInterval(ttl.timeInterval) }
        if let lifetime = rules.freshness(now: now) ?? rules.heuristicFreshness(now: now) {
            return now.addingTimeInterval(lifetime)
        }
        let validated = rules.headers["ETag"] != nil || rules.headers["Last-Modified"] != nil
        return validated || plan.policy == .networkFirst || plan.policy == .cacheAndNetwork ? now : nil
    }

    /// The typenames in a GraphQL response that may be stored (data present; errors only when
    /// allowed), or `nil` when it may not.
    private func graphQLTypenames(_ response: HTTPResponse) -> [String]? {
        guard let envelope = try? GraphQLEnvelope.read(response, operation: "query"), !envelope.hasNoData,
              envelope.errors.isEmpty || storesResponsesWithErrors
        else { return nil }
        return Self.typenames(in: envelope.data ?? .null)
    }

    /// Every distinct `__typename` string in `value`, walked without recursion; at most 256.
    static func typenames(in value: JSONValue) -> [String] {
        var found = Set<String>()
        var pending = [value]
        while let next = pending.popLast(), found.count < 256 {
            switch next {
            case .object(let object):
                for item in object {
                    let member = item.value
                    if item.key == "__typename", let typename = member.stringValue {
                        found.insert(typename)
                    } else if case .object = member {
                        pending.append(member)
                    } else if case .array = member {
                        pending.append(member)
                    }
                }
            case .array(let items):
                for item in items {
                    switch item {
                    case .object, .array: pending.append(item)
                    default: break
                    }
                }
            default: break
            }
        }
        return found.sorted()
    }

    /// Stores `entry` unless an invalidation or purge came since `generation`; one that comes
    /// during the write removes the entry again.
    @discardableResult
    func write(_ entry: CacheEntry, generation: UInt64) async -> Bool {
        guard self.generation == generation else { return false }
        do {
            guard try await store.put(entry) else { return false }
        } catch {
            return false
        }
        guard self.generation == generation else {
            _ = try? await store.remove(.key(entry.key))
            return false
        }
        changes.notify([entry.key], .stored)
        return true
    }

    /// After a request the cache does not store succeeded: an unsafe REST request invalidates its
    /// URL (RFC 9111 §4.4); a GraphQL mutation invalidates the types its response names.
    func invalidate(after prepared: PreparedRequest, request: HTTPRequest, response: HTTPResponse) async {
        if let graphQL = prepared.graphQLCache {
            guard !graphQL.isQuery, invalidatesByType, response.isSuccess,
                  let envelope = try? GraphQLEnvelope.read(response, operation: "mutation"), let data = envelope.data
            else { return }
            for typename in Self.typenames(in: data) { _ = try? await invalidate(.type(typename)) }
            return
        }
        guard !prepared.method.isSafe, (200..<400).contains(response.status) else { return }
        _ = try? await invalidate(.url(request.url))
    }
}

/// What step 10 does with one network answer (see `ResponseCache.settlement`).
struct CacheSettlement {
    /// The response to answer with: the network's, or the stored one a `304` confirmed.
    let answer: HTTPResponse
    /// The cache outcome for the request that made the call.
    let outcome: CacheOutcome
    /// The entry to write once the answer has decoded; `nil` when nothing is stored.
    let entry: CacheEntry?
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var timeInterval: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
