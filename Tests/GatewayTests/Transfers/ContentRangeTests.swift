import Foundation
@testable import Gateway
import Testing

@Suite struct ContentRangeTests {
    @Test(arguments: [
        ("bytes 0-499/1234", 0, 499, 1234),
        ("bytes 500-1233/1234", 500, 1233, 1234),
        ("BYTES 7-7/*", 7, 7, nil),
    ] as [(String, Int64, Int64, Int64?)])
    func aSatisfiedByteRangeIsRead(text: String, first: Int64, last: Int64, complete: Int64?) throws {
        let range = try #require(ContentRange(text))
        #expect(range.first == first)
        #expect(range.last == last)
        #expect(range.completeLength == complete)
    }

    @Test(arguments: [
        "bytes */1234", "bytes 5-4/10", "bytes 0-10/10", "items 0-1/2", "bytes 0-/10", "bytes -1-2/3", "",
    ])
    func anythingElseIsRefused(text: String) {
        #expect(ContentRange(text) == nil)
    }

    @Test func aStrongETagIsPreferredToLastModifiedAndAWeakOneIsNotUsed() throws {
        let date = "Tue, 24 Nov 2026 10:00:00 GMT"
        let strong = try #require(DownloadValidator(["ETag": "\"abc\"", "Last-Modified": date]))
        #expect(strong.value == "\"abc\"")
        let weak = try #require(DownloadValidator(["ETag": "W/\"abc\"", "Last-Modified": date]))
        #expect(weak.field == "Last-Modified")
        #expect(DownloadValidator(["ETag": "W/\"abc\""]) == nil)
        #expect(DownloadValidator(line: strong.line) == strong)
        #expect(DownloadValidator(line: "Range: bytes=0-") == nil)
    }
}
