import Foundation
import Gateway
import Testing

/// The event-stream format as the HTML standard interprets it, whatever the chunking.
@Suite struct ServerSentEventParserTests {
    /// Every event of `text`, fed whole and fed one byte at a time: both must agree.
    static func events(_ text: String, lastEventID: String = "", maxEventBytes: Int = 1 << 20) throws -> [ServerSentEvent] {
        var whole = ServerSentEventParser(lastEventID: lastEventID, maxEventBytes: maxEventBytes)
        let all = try whole.events(in: Data(text.utf8))
        var bytewise = ServerSentEventParser(lastEventID: lastEventID, maxEventBytes: maxEventBytes)
        var one: [ServerSentEvent] = []
        for byte in Data(text.utf8) { one += try bytewise.events(in: Data([byte])) }
        #expect(one == all, "fed byte by byte, the same stream gave other events")
        return all
    }

    @Test func dataLinesJoinWithLineFeedsAndABlankLineDispatches() throws {
        let events = try Self.events("data: first\ndata:second\n\ndata: third\n\n")
        #expect(events == [ServerSentEvent(data: "first\nsecond"), ServerSentEvent(data: "third")])
    }

    @Test func everyLineEndIsALineEndAndCRLFIsOne() throws {
        let events = try Self.events("data: a\r\ndata: b\rdata: c\n\r\n")
        #expect(events.map(\.data) == ["a\nb\nc"])
    }

    @Test func eventTypeIdAndRetryAreRead() throws {
        let events = try Self.events("event: tick\nid: 7\nretry: 2500\ndata: {}\n\ndata: later\n\n")
        #expect(events == [
            ServerSentEvent(type: "tick", data: "{}", lastEventID: "7", retry: .milliseconds(2500)),
            // The type and retry are per event; the ID carries over.
            ServerSentEvent(type: "message", data: "later", lastEventID: "7"),
        ])
    }

    @Test func commentsUnknownFieldsAndBadValuesAreIgnored() throws {
        var parser = ServerSentEventParser()
        let events = try parser.events(in: Data(": keep-alive\nfoo: bar\nretry: 12s\nid: a\u{0}b\ndata\n\n".utf8))
        #expect(events == [ServerSentEvent(data: "")])
        #expect(parser.reconnectionTime == nil, "a retry that is not all digits is ignored")
        #expect(parser.lastEventID == "", "an id with NUL is ignored")
    }

    @Test func anEventWithoutDataIsNotDispatchedAndItsTypeDoesNotLeak() throws {
        let events = try Self.events("event: lonely\n\ndata: x\n\n")
        #expect(events == [ServerSentEvent(type: "message", data: "x")])
    }

    @Test func aLeadingByteOrderMarkIsSkippedOnce() throws {
        let events = try Self.events("\u{FEFF}data: x\n\n")
        #expect(events.map(\.data) == ["x"])
    }

    @Test func theResumedIDIsTheStartingLastEventID() throws {
        let events = try Self.events("data: x\n\n", lastEventID: "41")
        #expect(events.first?.lastEventID == "41")
    }

    @Test func aFieldNameAloneHasAnEmptyValueAndOnlyOneSpaceIsStripped() throws {
        let events = try Self.events("data:  two spaces\n\n")
        #expect(events.map(\.data) == [" two spaces"])
    }

    @Test func anEndlessLineIsRefusedAtTheLimit() {
        let error = #expect(throws: GatewayError.self) {
            try Self.events(String(repeating: "x", count: 100), maxEventBytes: 64)
        }
        #expect(error?.kind == .responseTooLarge)
        #expect(error?.message.contains("longer than 64 bytes") == true)
    }

    @Test func anEndlessEventIsRefusedAtTheLimit() {
        let text = String(repeating: "data: 0123456789\n", count: 20)
        let error = #expect(throws: GatewayError.self) { try Self.events(text, maxEventBytes: 64) }
        #expect(error?.message.contains("event's data is longer than 64 bytes") == true)
    }

    @Test func readChunksDropsAnEventTheStreamEndsInTheMiddleOf() async throws {
        let chunks = ["data: one\n", "\ndata: cut", " short"].map { Data($0.utf8) }
        var events: [String] = []
        for try await event in Self.stream(chunks).serverSentEvents() { events.append(event.data) }
        #expect(events == ["one"])
    }

    @Test func textLinesGivesTheLastLineWithoutAnEnd() async throws {
        let chunks = ["one\r", "\ntwo\nthr", "ee"].map { Data($0.utf8) }
        var lines: [String] = []
        for try await line in Self.stream(chunks).textLines() { lines.append(line) }
        #expect(lines == ["one", "two", "three"])
    }

    static func stream(_ chunks: [Data]) -> AsyncStream<Data> {
        AsyncStream { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
    }
}
