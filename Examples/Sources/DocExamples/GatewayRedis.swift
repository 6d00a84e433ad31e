// The examples of Sources/GatewayRedis, and the README's "A shared cache on Redis".
import Gateway
import GatewayRedis

// RedisURL
func redisURL() throws {
    let url = try RedisURL("redis://cache:s3cret@10.0.0.5:6380/2")
    print(url)   // redis://cache:***@10.0.0.5:6380/2
}

// RedisCommand
func redisCommand() {
    var command = RedisCommand("SET", "greeting", "hello")
    command.append(["PX", "1000"])
    _ = command
}

// RedisClient
func redisClient() async throws {
    let redis = RedisClient(url: try RedisURL("redis://127.0.0.1:6379/0"))
    let replies = try await redis.pipeline([RedisCommand("SET", "a", "1"), RedisCommand("GET", "a")])
    print(replies[1].text ?? "")   // 1
}

// RedisCacheStore
func redisCacheStore() throws {
    let store = RedisCacheStore(url: try RedisURL("redis://127.0.0.1:6379/0"), keyPrefix: "music:")
    let cache = ResponseCache(store: LayeredCacheStore(back: store))
    _ = cache
}

// README: A shared cache on Redis
func readmeSharedCache(config: inout Provider.Configuration) throws {
    let store = RedisCacheStore(url: try RedisURL("redis://cache:s3cret@10.0.0.5:6379/0"), keyPrefix: "bookshelf:")
    config.cache = ResponseCache(store: LayeredCacheStore(back: store))   // memory in front, optional
}
