import Gateway

extension RedisCacheStore {
    /// The advice the memory warnings give.
    static let memoryAdvice = "set maxmemory (for example `maxmemory 256mb`) and `maxmemory-policy volatile-lru` "
        + "in redis.conf, so that Redis evicts the least recently used entries and never the index sets"

    /// Reads the replies of `CONFIG GET maxmemory` and `CONFIG GET maxmemory-policy`, and warns
    /// once when memory is unbounded or full memory would fail writes.
    func checkMemory(maxMemory: RESPValue, policy: RESPValue) {
        let limit = maxMemory.arrayValue.flatMap { $0.count == 2 ? $0[1].integerValue : nil }
        let policyName = policy.arrayValue.flatMap { $0.count == 2 ? $0[1].text : nil }
        state.withLock { state in
            state.memoryChecked = true
            state.maxMemory = limit.map { Int(clamping: $0) } ?? 0
        }
        guard let limit, let policyName else {
            let reason = maxMemory.errorMessage ?? policy.errorMessage ?? "an unexpected reply"
            warnOnce("memory", "could not check the Redis cache's memory bound (CONFIG GET answered: \(reason)); "
                     + "make sure the server has one: " + Self.memoryAdvice)
            return
        }
        if limit == 0 {
            warnOnce("memory", "the Redis cache has no memory bound (maxmemory is 0): it grows until the server "
                     + "runs out of memory; " + Self.memoryAdvice)
        } else if policyName == "noeviction" {
            warnOnce("memory", "the Redis cache's maxmemory-policy is noeviction: once \(limit) bytes are used, "
                     + "nothing more is cached; " + Self.memoryAdvice)
        }
    }
}
