/// The Lua scripts the store runs with `EVAL`, each one atomic on the server.
enum RedisScripts {
    /// Reads an entry's hash and counts the hit on it in one step: KEYS[1] the entry, ARGV[1]
    /// the time of the hit. A missing entry stays missing (nothing is created).
    static let read = """
        local fields = redis.call('HGETALL', KEYS[1])
        if #fields > 0 then
            redis.call('HINCRBY', KEYS[1], 'hits', 1)
            redis.call('HSET', KEYS[1], 'last_access', ARGV[1])
        end
        return fields
        """

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

    /// `EVAL script numkeys keys... args...`.
    static func call(_ script: String, keys: [String], arguments: [String]) -> RedisCommand {
        var command = RedisCommand("EVAL", script, String(keys.count))
        command.append(keys)
        command.append(arguments)
        return command
    }
}
