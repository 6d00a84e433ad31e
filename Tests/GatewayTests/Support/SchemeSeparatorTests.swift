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
}
