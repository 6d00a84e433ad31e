import Foundation
import Gateway

extension RedisCacheStore {
    /// Removes the selected entries from Redis and from every index, for every instance at once,
    /// and tells the other instances (their memory layers drop the same selection).
    ///
    /// - Throws: `GatewayError` of kind `.cache` when Redis is unavailable: nothing was removed.
    @discardableResult
    public func remove(_ selection: CacheSelection) async throws -> Int {
        let records = try await select(selection, includeBodies: false, action: "remove cache entries")
        var commands: [RedisCommand] = []
        var deletions: [Int] = []
        for record in records {
            deletions.append(commands.count)
            commands.append(RedisCommand("DEL", keys.entry(record.entry.key.digest)))
            for index in keys.indexes(of: record.entry) {
                commands.append(RedisCommand("ZREM", index, record.entry.key.hex))
            }
        }
        // Published even when Redis held none of them: another instance's memory may.
        var notice = RedisCommand("PUBLISH", keys.removalChannel)
        notice.append(bytes: RedisRemovalNotice(from: notifications.instance, selection: selection).encoded())
        commands.append(notice)
        let replies = try await answers(to: commands, action: "remove cache entries")
        return deletions.reduce(0) { $0 + Int(replies[$1].integerValue ?? 0) }
    }

    /// The selected entries, most recently used first.
    ///
    /// - Throws: `GatewayError` of kind `.cache` when Redis is unavailable.
    public func list(_ selection: CacheSelection, includeBodies: Bool) async throws -> [CacheRecord] {
        try await select(selection, includeBodies: includeBodies, action: "list cache entries")
            .sorted { $0.lastAccess > $1.lastAccess }
    }

    /// The counters kept in Redis (with those not yet written), the entries and their bytes.
    ///
    /// - Throws: `GatewayError` of kind `.cache` when Redis is unavailable.
    public func statistics() async throws -> CacheStatistics {
        let counters = try await answers(to: [RedisCommand("HGETALL", keys.statistics)], action: "read the cache statistics",
                                         flush: true)
        var statistics = CacheStatistics(byteLimit: byteLimit)
        for (field, value) in RedisRecord.fields(ofHashReply: counters[0]) ?? [:] {
            guard let colon = field.firstIndex(of: ":"), let number = RedisRecord.integer(value) else { continue }
            let name = String(field[field.index(after: colon)...])
            var entry = statistics.operations[name] ?? CacheCounters()
            switch field[..<colon] {
            case "hits": entry.hits += Int(number)
            case "misses": entry.misses += Int(number)
            case "stale_hits": entry.staleHits += Int(number)
            case "writes": entry.writes += Int(number)
            case "evictions": entry.evictions += Int(number)
            default: continue
            }
            statistics.operations[name] = entry
        }
        let records = try await select(.all, includeBodies: false, action: "read the cache statistics")
        statistics.entries = records.count
        statistics.bytes = records.reduce(0) { $0 + $1.size }
        return statistics
    }

    /// The entries of the narrowest index the selection names that match it; members of entries
    /// gone from Redis (expired or evicted) are pruned from that index on the way. The hits
    /// counted in memory are written first, so that the records include them.
    func select(_ selection: CacheSelection, includeBodies: Bool, action: String) async throws -> [CacheRecord] {
        let digests: [String]
        if let key = selection.key {
            digests = [key.hex]
        } else {
            let index = keys.index(for: selection)
            let nowMilliseconds = String(Int64((Date().timeIntervalSince1970 * 1000).rounded()))
            let members = try await answers(to: 
                [RedisCommand("ZREMRANGEBYSCORE", index, "-inf", nowMilliseconds), RedisCommand("ZRANGE", index, "0", "-1")],
                action: action, flush: true)
            digests = (members[1].arrayValue ?? []).compactMap(\.text)
                .filter { hex in selection.keyPrefix.map { hex.hasPrefix($0) } ?? true }
        }
        guard !digests.isEmpty else { return [] }
        let names = RedisRecord.listFields + (includeBodies ? ["body"] : [])
        var reads: [RedisCommand] = []
        for hex in digests {
            var read = RedisCommand("HMGET", keys.entry(hex: hex))
            read.append(names)
            reads.append(read)
        }
        let values = try await answers(to: reads, action: action)
        var records: [CacheRecord] = []
        var gone: [String] = []
        for (hex, value) in zip(digests, values) {
            guard let fields = RedisRecord.fields(ofValues: value, names: names), !fields.isEmpty,
                  let record = RedisRecord.record(fields)
            else {
                gone.append(hex)
                continue
            }
            if selection.matches(record.entry) { records.append(record) }
        }
        if !gone.isEmpty, selection.key == nil {
            var prune = RedisCommand("ZREM", keys.index(for: selection))
            prune.append(gone)
            _ = await exchange([prune])
        }
        return records
    }
}
