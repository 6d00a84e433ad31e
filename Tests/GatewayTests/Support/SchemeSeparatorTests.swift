@testable import Gateway
import Testing

@Suite struct SchemeSeparatorTests {
    @Test func theOffsetIsJustPastTheFirstSeparator() {
        #expect(SchemeSeparator.end(in: "https://example.com/a") == 8)
        #expect(SchemeSeparator.end(in: "http://a/b?c=d://e") == 7)
        #expect(SchemeSeparator.end(in: "x:://y") == 5)
        #expect(SchemeSeparator.end(in: "://") == 3)
        #expect(SchemeSeparator.end(in: "é://") == 5)
    }

    @Test func textWithoutTheWholeSeparatorHasNone() {
        #expect(SchemeSeparator.end(in: "") == nil)
        #expect(SchemeSeparator.end(in: "users/1") == nil)
        #expect(SchemeSeparator.end(in: "a:/b") == nil)
        #expect(SchemeSeparator.end(in: "a:b//c") == nil)
        #expect(SchemeSeparator.end(in: "a/:/") == nil)
    }

    @Test func theAuthorityRunsToThePathQueryOrFragment() {
        #expect(SchemeSeparator.authority(in: "https://api.example.com/v1") == 8..<23)
        #expect(SchemeSeparator.authority(in: "http://a:80?q") == 7..<11)
        #expect(SchemeSeparator.authority(in: "http://a#f") == 7..<8)
        #expect(SchemeSeparator.authority(in: "http://user@a") == 7..<13)
        #expect(SchemeSeparator.authority(in: "file:///tmp") == 7..<7)
        #expect(SchemeSeparator.authority(in: "users/1") == nil)
    }
}
