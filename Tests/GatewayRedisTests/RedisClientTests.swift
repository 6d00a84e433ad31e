import Foundation
import GatewayRedis
import GatewayTestSupport
import Testing

@Suite(.requiresRedis) struct RedisClientTests {
    @Test func pipelinesCommandsAndReturnsAnErrorReplyAsAValue() async throws {
        let server = try await RedisServer.start()
        let client = RedisClient(url: server.url, poolSize: 2, timeout: .seconds(5))
        let replies = try await client.pipeline([
            RedisCommand("SET", "greeting", "hello"), RedisCommand("GET", "greeting"),
            RedisCommand("INCR", "greeting"), RedisCommand("GET", "missing"),
        ])
        #expect(replies.count == 4)
        #expect(replies[0] == .simpleString("OK"))
        #expect(replies[1].text == "hello")
        #expect(replies[2].errorMessage?.contains("not an integer") == true)
        #expect(replies[3] == .null)
    }

    @Test func keepsBinaryValuesIntact() async throws {
        let server = try await RedisServer.start()
        let client = RedisClient(url: server.url, timeout: .seconds(5))
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var set = RedisCommand("SET", "blob")
        set.append(bytes: bytes)
        _ = try await client.send(set)
        #expect(try await client.send(RedisCommand("GET", "blob")).bytes == bytes)
    }

    @Test func logsInAndSelectsTheDatabaseOfTheURL() async throws {
        let server = try await RedisServer.start(["--requirepass", "s3cret"])
        var url = server.url
        url.password = "s3cret"
        url.database = 3
        let client = RedisClient(url: url, timeout: .seconds(5))
        _ = try await client.send(RedisCommand("SET", "where", "three"))
        let other = RedisClient(url: RedisURL(host: url.host, port: url.port, password: "s3cret"), timeout: .seconds(5))
        #expect(try await other.send(RedisCommand("GET", "where")) == .null)
        #expect(try await other.pipeline([RedisCommand("SELECT", "3"), RedisCommand("GET", "where")])[1].text == "three")
    }

    @Test func aRefusedPasswordIsAnAuthenticationError() async throws {
        let server = try await RedisServer.start(["--requirepass", "s3cret"])
        var url = server.url
        url.password = "hunter2-wrong"
        let client = RedisClient(url: url, timeout: .seconds(5))
        let error = try await #require(throws: RedisError.self) { try await client.send(RedisCommand("PING")) }
        #expect(error.kind == .authentication)
        #expect(error.message.contains("AUTH"))
        #expect(!error.message.contains("hunter2"))
    }

    @Test func reconnectsAfterTheServerDroppedItsConnection() async throws {
        let server = try await RedisServer.start()
        let client = RedisClient(url: server.url, poolSize: 1, timeout: .seconds(5))
        #expect(try await client.send(RedisCommand("PING")) == .simpleString("PONG"))
        let killer = RedisClient(url: server.url, poolSize: 1, timeout: .seconds(5))
        let killed = try await killer.send(RedisCommand("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"))
        #expect(killed.integerValue == 1)
        #expect(try await client.send(RedisCommand("PING")) == .simpleString("PONG"))
    }

    @Test func aServerThatNeverAnswersTimesOutAtTheCallsDeadline() async throws {
        let silent = try SilentServer()
        let client = RedisClient(url: RedisURL(host: "127.0.0.1", port: silent.port), timeout: .milliseconds(200))
        let error = try await #require(throws: RedisError.self) { try await client.send(RedisCommand("PING")) }
        #expect(error.kind == .timeout)
    }

    @Test func aServerThatIsNotThereIsAConnectionError() async throws {
        let port = try RedisServer.freePort()
        let client = RedisClient(url: RedisURL(host: "127.0.0.1", port: port), timeout: .seconds(5))
        let error = try await #require(throws: RedisError.self) { try await client.send(RedisCommand("PING")) }
        #expect(error.kind == .connection)
        #expect(error.message.contains("127.0.0.1:\(port)"))
    }

    @Test func aClosedClientFailsItsCalls() async throws {
        let server = try await RedisServer.start()
        let client = RedisClient(url: server.url, timeout: .seconds(5))
        client.close()
        let error = try await #require(throws: RedisError.self) { try await client.send(RedisCommand("PING")) }
        #expect(error.kind == .closed)
    }
}

/// Servers that break the protocol: the client fails the call, drops the connection, and neither
/// crashes nor allocates what the server announces.
@Suite struct RedisHostileServerTests {
    @Test(arguments: [
        ("$99999999999\r\n", "more than the limit"),
        ("*99999999\r\n", "more than the limit"),
        (String(repeating: "*1\r\n", count: 100), "nest deeper"),
        ("HTTP/1.1 400 Bad Request\r\n", "unexpected type byte"),
    ])
    func aHostileReplyFailsTheCallAsAProtocolViolation(reply: String, message: String) async throws {
        let server = try SilentServer(answer: Array(reply.utf8))
        let client = RedisClient(url: RedisURL(host: "127.0.0.1", port: server.port), poolSize: 1,
                                 timeout: .seconds(5))
        let error = try await #require(throws: RedisError.self) { try await client.send(RedisCommand("PING")) }
        #expect(error.kind == .protocolViolation)
        #expect(error.message.contains(message), "\(error.message)")
    }
}
