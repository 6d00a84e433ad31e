@testable import GatewayRedis
import Testing

@Suite struct RESPParserTests {
    static func parse(_ text: String, limits: RESPLimits = RESPLimits()) throws -> [RESPValue] {
        var parser = RESPParser(limits: limits)
        parser.append(Array(text.utf8))
        var values: [RESPValue] = []
        while let value = try parser.next() { values.append(value) }
        return values
    }

    @Test func readsEveryRESP2Type() throws {
        let values = try Self.parse("+OK\r\n-ERR no\r\n:-42\r\n$5\r\nhe\r\no\r\n$-1\r\n*-1\r\n*2\r\n:1\r\n*1\r\n$0\r\n\r\n")
        #expect(values == [
            .simpleString("OK"), .error("ERR no"), .integer(-42), .bulkString(Array("he\r\no".utf8)), .null, .null,
            .array([.integer(1), .array([.bulkString([])])]),
        ])
    }

    @Test func waitsForTheRestOfAReplySplitAtAnyByte() throws {
        let text = Array("*3\r\n$3\r\nfoo\r\n:7\r\n+done\r\n".utf8)
        for split in 1..<text.count {
            var parser = RESPParser()
            parser.append(Array(text[..<split]))
            #expect(try parser.next() == nil, "complete after only \(split) bytes")
            parser.append(Array(text[split...]))
            #expect(try parser.next() == .array([.bulkString(Array("foo".utf8)), .integer(7), .simpleString("done")]))
            #expect(try parser.next() == nil)
        }
    }

    @Test(arguments: [
        ("$99999999999\r\n", "more than the limit"),
        ("$-5\r\n", "announces length -5"),
        ("*2000000\r\n", "more than the limit"),
        ("*-3\r\n", "announces -3 elements"),
        (":99999999999999999999\r\n", "is not an integer"),
        (":9223372036854775808\r\n", "overflows"),
        (":12a\r\n", "is not an integer"),
        ("$3\r\nabcXY", "not followed by CRLF"),
        ("%1\r\n", "unexpected type byte 0x25"),
        ("+OK\rX", "CR is not followed by LF"),
    ])
    func refusesAHostileOrBrokenReplyWithoutAllocatingForIt(text: String, message: String) throws {
        let error = try #require(throws: RESPProtocolError.self) { try Self.parse(text) }
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func refusesArraysNestedDeeperThanTheLimit() throws {
        let deep = String(repeating: "*1\r\n", count: 9) + ":1\r\n"
        let error = try #require(throws: RESPProtocolError.self) { try Self.parse(deep) }
        #expect(error.message.contains("nest deeper"))
        #expect(try Self.parse(String(repeating: "*1\r\n", count: 8) + ":1\r\n").count == 1)
    }

    @Test func refusesALineThatNeverEnds() throws {
        let limits = RESPLimits(maximumLineBytes: 16)
        var parser = RESPParser(limits: limits)
        parser.append(Array(("+" + String(repeating: "a", count: 10)).utf8))
        #expect(try parser.next() == nil)
        parser.append(Array(String(repeating: "a", count: 10).utf8))
        let error = try #require(throws: RESPProtocolError.self) { try parser.next() }
        #expect(error.message.contains("line is longer than 16"))
    }

    @Test func refusesAReplyThatGrowsPastTheByteLimitBeforeItIsComplete() throws {
        var parser = RESPParser(limits: RESPLimits(maximumReplyBytes: 100))
        parser.append(Array("*50\r\n".utf8))
        for _ in 0..<10 { parser.append(Array("$5\r\nabcde\r\n".utf8)) }
        let error = try #require(throws: RESPProtocolError.self) { try parser.next() }
        #expect(error.message.contains("longer than 100 bytes"))
    }
}
