import GatewayRedis
import Testing

@Suite struct RedisURLTests {
    @Test func readsEveryPartOfAFullURL() throws {
        let url = try RedisURL("redis://cache%40eu:p%3Ass@10.0.0.5:6380/2")
        #expect(url == RedisURL(host: "10.0.0.5", port: 6380, user: "cache@eu", password: "p:ss", database: 2))
        #expect(url.description == "redis://cache@eu:***@10.0.0.5:6380/2")
    }

    @Test func defaultsThePortAndDatabase() throws {
        #expect(try RedisURL("redis://localhost") == RedisURL(host: "localhost", port: 6379, database: 0))
        #expect(try RedisURL("redis://localhost/") == RedisURL(host: "localhost"))
    }

    @Test func readsAPasswordWithoutAUserAndAnIPv6Address() throws {
        #expect(try RedisURL("redis://:secret@[::1]:7000/1")
            == RedisURL(host: "::1", port: 7000, password: "secret", database: 1))
        #expect(try RedisURL("redis://secret@host").password == "secret")
        #expect(try RedisURL("redis://[::1]").description == "redis://[::1]:6379/0")
    }

    @Test(arguments: [
        ("http://host", "does not start with redis://"),
        ("rediss://host", "TLS (rediss://) is not supported"),
        ("redis://host:port", "the port \"port\" is not a number"),
        ("redis://host:70000", "from 1 to 65535"),
        ("redis://host/db", "the database \"db\" is not a number"),
        ("redis://host/-1", "is not a number"),
        ("redis://:6379", "the host is missing"),
        ("redis://host?timeout=1", "query parameters"),
        ("redis://[::1", "closing ]"),
        ("redis://user:pa%zzss@host", "two hex digits"),
    ])
    func refusesABadURLSayingWhatIsWrong(text: String, reason: String) throws {
        let error = try #require(throws: RedisURLError.self) { try RedisURL(text) }
        #expect(error.reason.contains(reason), "\(error)")
        #expect(error.description.contains("expected redis://[user:password@]host[:port][/db]"))
    }

    @Test func hidesThePasswordOfABadURLInItsError() throws {
        let error = try #require(throws: RedisURLError.self) { try RedisURL("redis://u:hunter2@host:x") }
        #expect(!error.description.contains("hunter2"))
    }
}
