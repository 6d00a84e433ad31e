import Foundation
@testable import Gateway
import Testing

@Suite struct OriginTests {
    private func url(_ text: String) throws -> URL { try #require(URL(string: text)) }

    @Test func urlsOfOneOriginAreTheSame() throws {
        let base = try url("https://api.example.com/v1/")
        #expect(Origin.isSame(try url("https://api.example.com/v1/users?page=2"), as: base))
        #expect(Origin.isSame(try url("https://api.example.com"), as: base))
        #expect(Origin.isSame(try url("https://API.Example.com/other"), as: base))
        #expect(Origin.isSame(try url("https://api.example.com:443/v1"), as: base))
        #expect(Origin.isSame(try url("https://user@api.example.com/v1"), as: base))
        #expect(Origin.isSame(try url("http://127.0.0.1:8080/a#frag"), as: try url("http://127.0.0.1:8080?q=1")))
    }

    @Test func anotherSchemeHostOrPortIsAnotherOrigin() throws {
        let base = try url("https://api.example.com/v1/")
        #expect(!Origin.isSame(try url("http://api.example.com/v1/"), as: base))
        #expect(!Origin.isSame(try url("https://api.example.com:8443/v1/"), as: base))
        #expect(!Origin.isSame(try url("https://api.example.com.evil.net/v1/"), as: base))
        #expect(!Origin.isSame(try url("https://evil.net/@api.example.com/"), as: base))
        #expect(!Origin.isSame(try url("https://api.example.com@evil.net/"), as: base))
    }

    @Test func aURLWithoutAHostHasNoOrigin() throws {
        #expect(!Origin.isSame(try url("file:///tmp/a"), as: try url("file:///tmp/a")))
        #expect(!Origin.isSame(try url("users/1"), as: try url("users/1")))
    }
}
