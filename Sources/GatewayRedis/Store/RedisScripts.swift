/// The Lua scripts the store runs with `EVAL`, each one atomic on the server.
enum RedisScripts {
    /// Adds counted hits to entries that still exist: KEYS the entries, ARGV pairs of hits and
    /// the time of the last one.
    static let touch = """
        for index, key in ipairs(KEYS) do
            if redis.call('EXISTS', key) == 1 then
                redis.call('HINCRBY', key, 'hits', ARGV[2 * index - 1])
                redis.call('HSET', key, 'last_access', ARGV[2 * index])
            end
        end
        return #KEYS
        """

    /// Ends a lease only for the instance holding it, and tells the waiters: KEYS[1] the lease,
    /// ARGV[1] the holder's token, ARGV[2] the channel, ARGV[3] the message.
    static let release = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then
            redis.call('DEL', KEYS[1])
            redis.call('PUBLISH', ARGV[2], ARGV[3])
            return 1
        end
        return 0
        """

    /// Extends a lease only for the instance holding it: KEYS[1] the lease, ARGV[1] the token,
    /// ARGV[2] the new lifetime in milliseconds. Returns 0 when the lease is no longer its.
    static let renew = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then
            return redis.call('PEXPIRE', KEYS[1], ARGV[2])
        end
        return 0
        """

    /// `EVAL script numkeys keys... args...`.
    static func call(_ script: String, keys: [String], arguments: [String]) -> RedisCommand {
        var command = RedisCommand("EVAL", script, String(keys.count))
        command.append(keys)
        command.append(arguments)
        return command
    }
}
