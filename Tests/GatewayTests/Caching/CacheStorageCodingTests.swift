import Foundation
import Testing
@testable import Gateway

@Suite struct CacheStorageCodingTests {
    @Test func headersReadBackAsTheyWereWritten() {
        let headers: HTTPHeaders = HTTPHeaders([
            .init(name: "Content-Type", value: "application/json"),
            .init(name: "Set-Cookie", value: "a=1"),
            .init(name: "Set-Cookie", value: "b=2; Path=/"),
            .init(name: "X-Empty", value: ""),
            .init(name: "X-Colon", value: "a: b"),
        ])
        #expect(CacheStorageCoding.decodeHeaders(CacheStorageCoding.encodeHeaders(headers)) == headers)
    }

    @Test func fieldsThatCouldBreakALineAreLeftOut() {
        let headers: HTTPHeaders = HTTPHeaders([
            .init(name: "Good", value: "1"),
            .init(name: "Bad", value: "1\r\nInjected: yes"),
            .init(name: "Bad:Name", value: "2"),
            .init(name: "Nul", value: "a\u{0}b"),
        ])
        let decoded = CacheStorageCoding.decodeHeaders(CacheStorageCoding.encodeHeaders(headers))
        #expect(decoded == ["Good": "1"])
    }

    @Test func tagsAndVaryFieldsReadBack() {
        let tags = ["Track:1", "with \"quotes\", commas and \u{0} NUL"]
        #expect(CacheStorageCoding.decodeTags(CacheStorageCoding.encodeTags(tags)) == tags)
        #expect(CacheStorageCoding.decodeTags("not json") == [])
        let vary = [CacheKeyComponents.VaryField(name: "accept", value: nil),
                    CacheKeyComponents.VaryField(name: "accept-language", value: "en, de")]
        #expect(CacheStorageCoding.decodeVary(CacheStorageCoding.encodeVary(vary)) == vary)
    }
}
