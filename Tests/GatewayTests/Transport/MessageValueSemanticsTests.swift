import Foundation
import Gateway
import Testing

/// `HTTPRequest`, `HTTPResponse`, `PreparedRequest` and `CacheKey` keep their fields in shared
/// references; they must still behave as values: a changed copy never shows in the original,
/// equal fields make equal values, and every change is kept.
@Suite struct MessageValueSemanticsTests {
    private let url = URL(string: "https://api.example.com/users/42")!

    @Test func changingACopyOfARequestLeavesTheOriginalAsItWas() throws {
        let deadline = ContinuousClock.now + .seconds(30)
        let original = HTTPRequest(method: .get, url: url, headers: ["Accept": "application/json"],
                                   timeout: .seconds(5), deadline: deadline, maxResponseBytes: 1_000)
        var copy = original
        copy.method = .post
        copy.url = try #require(URL(string: "https://api.example.com/users"))
        copy.headers["Authorization"] = "Bearer t"
        copy.body = .data(Data("{}".utf8))
        copy.timeout = nil
        copy.deadline = nil
        copy.maxResponseBytes = 2_000
        copy.bodyProgress = BodyProgress { _, _ in }

        #expect(original.method == .get && original.url == url)
        #expect(original.headers["Authorization"] == nil && original.headers["Accept"] == "application/json")
        #expect(original.body == nil && original.timeout == .seconds(5) && original.maxResponseBytes == 1_000)
        #expect(original.deadline == deadline && original.bodyProgress == nil)

        #expect(copy.method == .post && copy.url.absoluteString == "https://api.example.com/users")
        #expect(copy.headers["Authorization"] == "Bearer t" && copy.body == .data(Data("{}".utf8)))
        #expect(copy.timeout == nil && copy.deadline == nil && copy.maxResponseBytes == 2_000)
        #expect(copy.bodyProgress != nil && copy != original)
    }

    @Test func requestsWithEqualFieldsAreEqualAndHashAlike() {
        let made = { HTTPRequest(method: .put, url: url, headers: ["X-Id": "7"], body: .data(Data([1, 2]))) }
        var changedBack = made()
        changedBack.maxResponseBytes = 5
        changedBack.maxResponseBytes = HTTPRequest.defaultMaxResponseBytes
        #expect(made() == made() && made() == changedBack)
        #expect(Set([made(), changedBack]).count == 1)
        var other = made()
        other.body = .data(Data([1, 3]))
        #expect(other != made())
    }

    @Test func changingACopyOfAResponseLeavesTheOriginalAsItWas() {
        let original = HTTPResponse(status: 200, headers: ["ETag": "\"a\""], body: Data("one".utf8), url: url)
        var copy = original
        copy.status = 304
        copy.headers["ETag"] = "\"b\""
        copy.body = Data()
        copy.url = nil
        copy.transportMetrics.redirects = 2

        #expect(original.status == 200 && original.headers["ETag"] == "\"a\"")
        #expect(original.body == Data("one".utf8) && original.url == url && original.transportMetrics.redirects == 0)
        #expect(copy.status == 304 && copy.headers["ETag"] == "\"b\"" && copy.body.isEmpty)
        #expect(copy.url == nil && copy.transportMetrics.redirects == 2)
        #expect(copy != original)
        #expect(original == HTTPResponse(status: 200, headers: ["ETag": "\"a\""], body: Data("one".utf8), url: url))
        #expect(Set([original, HTTPResponse(status: 200, headers: ["ETag": "\"a\""], body: Data("one".utf8),
                                            url: url)]).count == 1)
    }

    @Test func aResponseChangedTwiceKeepsBothChanges() {
        var response = HTTPResponse(status: 500)
        let kept = response
        response.status = 503
        response.headers["Retry-After"] = "3"
        #expect(response.status == 503 && response.headers["Retry-After"] == "3")
        #expect(kept.status == 500 && kept.headers["Retry-After"] == nil)
    }

    @Test func aCacheKeyKeepsItsComponents() {
        let key = CacheKey.rest(url: url, partition: .subject("user-1"), vary: ["Accept"],
                                requestHeaders: ["Accept": "application/json"])
        let copy = key
        #expect(copy.components == key.components && copy.components.endpoint == "https://api.example.com/users/42")
        #expect(copy.components.vary == [CacheKeyComponents.VaryField(name: "accept", value: "application/json")])
        #expect(key == CacheKey(components: key.components) && key.hex.count == 64)
        #expect(key != CacheKey.rest(url: url, partition: .subject("user-2")))
    }

    @Test func changingACopyOfAPreparedRequestLeavesTheOriginalAsItWas() throws {
        var original = PreparedRequest(name: "GET users/42", method: .get, url: url, headers: ["Accept": "*/*"])
        original.cache.ttl = .seconds(60)
        var copy = original
        copy.name = "GET users/43"
        copy.url = try #require(URL(string: "https://api.example.com/users/43"))
        copy.cache.policy = .networkOnly
        copy.cache.tags = ["users"]
        copy.timeout = .seconds(2)
        copy.headers["Accept"] = "application/json"

        #expect(original.name == "GET users/42" && original.url == url && original.headers["Accept"] == "*/*")
        #expect(original.cache.policy == nil && original.cache.tags.isEmpty && original.cache.ttl == .seconds(60))
        #expect(original.timeout == nil)
        #expect(copy.name == "GET users/43" && copy.url.lastPathComponent == "43")
        #expect(copy.cache.policy == .networkOnly && copy.cache.tags == ["users"] && copy.cache.ttl == .seconds(60))
        #expect(copy.timeout == .seconds(2) && copy.headers["Accept"] == "application/json")
    }
}
