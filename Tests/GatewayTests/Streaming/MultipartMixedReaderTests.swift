import Foundation
import Gateway
import Testing

/// `multipart/mixed` bodies read part by part, whatever the chunking.
@Suite struct MultipartMixedReaderTests {
    /// Every part of `text`, fed whole and fed one byte at a time: both must agree.
    static func parts(_ text: String, boundary: String = "graphql", maxPartBytes: Int = 1 << 20) throws
        -> (parts: [MultipartMixedReader.Part], closed: Bool)
    {
        var whole = MultipartMixedReader(boundary: boundary, maxPartBytes: maxPartBytes)
        var all = try whole.read(Data(text.utf8))
        if whole.isClosed { all += try whole.finish() }
        var bytewise = MultipartMixedReader(boundary: boundary, maxPartBytes: maxPartBytes)
        var one: [MultipartMixedReader.Part] = []
        for byte in Data(text.utf8) { one += try bytewise.read(Data([byte])) }
        #expect(one == all, "fed byte by byte, the same body gave other parts")
        return (all, whole.isClosed)
    }

    @Test func aSubscriptionBodyGivesItsPartsAndCloses() throws {
        let body = "\r\n--graphql\r\nContent-Type: application/json\r\n\r\n{}\r\n"
            + "--graphql\r\ncontent-type: application/json\r\n\r\n{\"payload\":{\"data\":{\"n\":1}}}\r\n--graphql--\r\n"
        let (parts, closed) = try Self.parts(body)
        #expect(parts.map { String(decoding: $0.body, as: UTF8.self) } == ["{}", #"{"payload":{"data":{"n":1}}}"#])
        #expect(parts.allSatisfy { $0.headers["Content-Type"] == "application/json" })
        #expect(closed)
    }

    /// strawberry-graphql's subscription body: no delimiter before the first part, and an empty
    /// part before the closing delimiter.
    @Test func aDelimiterWhereHeaderFieldsWereExpectedIsAnEmptyPartAndSkipped() throws {
        let body = "\r\nContent-Type: application/json\r\n\r\n{}\r\n--graphql\r\n"
            + "Content-Type: application/json\r\n\r\n{\"payload\":{\"data\":{\"n\":1}}}\r\n--graphql\r\n--graphql--\r\n"
        let (parts, closed) = try Self.parts(body)
        #expect(parts.map { String(decoding: $0.body, as: UTF8.self) } == [#"{"payload":{"data":{"n":1}}}"#])
        #expect(closed)
    }

    /// Servers send each event's delimiter at once and its line end only with the next event.
    @Test func aJSONPartIsHandedOutAsSoonAsItsDelimiterArrives() throws {
        var reader = MultipartMixedReader(boundary: "graphql")
        let first = try reader.read(Data("--graphql\r\nContent-Type: application/json\r\n\r\n{\"payload\":{\"n\":1}}\r\n--graphql".utf8))
        #expect(first.map { String(decoding: $0.body, as: UTF8.self) } == [#"{"payload":{"n":1}}"#])
        let second = try reader.read(Data("\r\nContent-Type: application/json\r\n\r\n{\"payload\":{\"n\":2}}\r\n--graphql".utf8))
        #expect(second.map { String(decoding: $0.body, as: UTF8.self) } == [#"{"payload":{"n":2}}"#])
        #expect(try reader.read(Data("--\r\n".utf8)).isEmpty)
        #expect(reader.isClosed)
    }

    @Test func aJSONPartNotYetCompleteWaitsForTheDelimitersLineEnd() throws {
        var reader = MultipartMixedReader(boundary: "graphql")
        let early = try reader.read(Data("--graphql\r\nContent-Type: application/json\r\n\r\n{\"a\":\r\n--graphql".utf8))
        #expect(early.isEmpty)
        let parts = try reader.read(Data("\r\n".utf8))
        #expect(parts.map { String(decoding: $0.body, as: UTF8.self) } == [#"{"a":"#])
    }

    @Test func thePreambleAndTheEpilogueAreSkippedAndLFAloneEndsLines() throws {
        let body = "preamble\n--b\nX-Part: 1\n\nfirst\nline two\n--b  \n\nsecond\n--b--\nepilogue"
        let (parts, closed) = try Self.parts(body, boundary: "b")
        #expect(parts.map { String(decoding: $0.body, as: UTF8.self) } == ["first\nline two", "second"])
        #expect(parts.first?.headers["X-Part"] == "1")
        #expect(closed)
    }

    @Test func aLineThatOnlyStartsLikeTheBoundaryIsBody() throws {
        let (parts, _) = try Self.parts("--b\n\n--bee\n--b--\n", boundary: "b")
        #expect(parts.map { String(decoding: $0.body, as: UTF8.self) } == ["--bee"])
    }

    @Test func theClosingDelimiterMayEndTheStreamWithoutALineEnd() throws {
        var reader = MultipartMixedReader(boundary: "b")
        let parts = try reader.read(Data("--b\n\nlast\n--b--".utf8))
        #expect(parts.isEmpty)
        let finished = try reader.finish()
        #expect(finished.map { String(decoding: $0.body, as: UTF8.self) } == ["last"])
        #expect(reader.isClosed)
    }

    @Test func aBodyThatEndsBeforeItsClosingDelimiterIsAnError() throws {
        var reader = MultipartMixedReader(boundary: "graphql")
        _ = try reader.read(Data("--graphql\r\n\r\n{}\r\n--graphql\r\n\r\n{\"pay".utf8))
        let error = #expect(throws: GatewayError.self) { try reader.finish() }
        #expect(error?.kind == .invalidResponse)
        #expect(error?.message.contains("ended before its closing delimiter --graphql--") == true)
    }

    @Test func aPartPastTheLimitIsRefusedWithoutWaitingForItsEnd() throws {
        var reader = MultipartMixedReader(boundary: "b", maxPartBytes: 100)
        _ = try reader.read(Data("--b\n\n".utf8))
        let error = #expect(throws: GatewayError.self) {
            for _ in 0..<20 { _ = try reader.read(Data(String(repeating: "x", count: 10).utf8)) }
        }
        #expect(error?.kind == .responseTooLarge)
    }

    @Test func anEndlessPreambleIsRefusedToo() throws {
        var reader = MultipartMixedReader(boundary: "b", maxPartBytes: 100)
        #expect(throws: GatewayError.self) {
            for _ in 0..<20 { _ = try reader.read(Data(String(repeating: "x", count: 10).utf8)) }
        }
    }

    @Test(arguments: [
        ("multipart/mixed; boundary=\"graphql\"; subscriptionSpec=1.0", "graphql"),
        ("multipart/mixed;boundary=-", "-"),
        ("Multipart/Mixed; BOUNDARY=abc", "abc"),
    ])
    func theBoundaryComesFromTheContentType(contentType: String, boundary: String) throws {
        #expect(try MultipartMixedReader(contentType: contentType).boundary == boundary)
    }

    @Test(arguments: ["application/json", "multipart/mixed", "multipart/mixed; boundary=\"\""])
    func aContentTypeWithoutAMultipartBoundaryIsRefused(contentType: String) {
        let error = #expect(throws: GatewayError.self) { try MultipartMixedReader(contentType: contentType) }
        #expect(error?.message.contains("not multipart/mixed with a boundary") == true)
    }
}
