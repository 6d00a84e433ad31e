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

    /// `EVAL script numkeys keys... args...`.
    static func call(_ script: String, keys: [String], arguments: [String]) -> RedisCommand {
        var command = RedisCommand("EVAL", script, String(keys.count))
        command.append(keys)
        command.append(arguments)
        return command
    }
}
