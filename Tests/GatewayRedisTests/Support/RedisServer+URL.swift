import GatewayRedis
import GatewayTestSupport

extension RedisServer {
    /// The server's URL, database 0.
    var url: RedisURL { RedisURL(host: "127.0.0.1", port: port) }
}
