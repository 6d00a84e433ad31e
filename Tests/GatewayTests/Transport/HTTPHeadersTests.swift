import Gateway
import Testing

@Suite struct HTTPHeadersTests {
    private func pairs(_ headers: HTTPHeaders) -> [String] { headers.map { "\($0.name): \($0.value)" } }

    @Test func aNameIsLookedUpWithoutRegardToCase() {
        let headers: HTTPHeaders = ["Content-Type": "text/plain", "X-Trace": "1"]
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["X-TRACE"] == "1")
        #expect(headers["Accept"] == nil)
        #expect(headers.contains("x-trace"))
        #expect(!headers.contains("X-Trac"))
        // Only ASCII letters fold: HTTP field names are ASCII, and nothing else is made equal.
        let folded: HTTPHeaders = ["X-Straße": "1", "X-ÄBC": "2"]
        #expect(folded["x-straße"] == "1")
        #expect(folded["X-STRASSE"] == nil)
        #expect(folded["x-äbc"] == nil)
        #expect(folded["x-Äbc"] == "2")
    }

    @Test func settingANameReplacesItsFirstFieldInPlaceAndRemovesTheOthers() {
        var headers = HTTPHeaders()
        headers.add(name: "Accept", value: "a")
        headers.add(name: "X-Tag", value: "1")
        headers.add(name: "accept", value: "b")
        headers.add(name: "X-Other", value: "2")
        headers["ACCEPT"] = "c"
        #expect(pairs(headers) == ["Accept: c", "X-Tag: 1", "X-Other: 2"])
    }

    @Test func settingANewNameAppendsItAndNilRemovesEveryFieldOfTheName() {
        var headers: HTTPHeaders = ["Accept": "a"]
        headers["Authorization"] = "Bearer t"
        #expect(pairs(headers) == ["Accept: a", "Authorization: Bearer t"])
        headers.add(name: "accept", value: "b")
        headers["Accept"] = nil
        #expect(pairs(headers) == ["Authorization: Bearer t"])
        headers["Missing"] = nil
        #expect(pairs(headers) == ["Authorization: Bearer t"])
    }

    @Test func removingANameThatIsNotThereChangesNothing() {
        var headers: HTTPHeaders = ["Accept": "a", "X-Tag": "1"]
        let before = headers
        headers.remove("Authorization")
        #expect(headers == before)
        headers.remove("x-tag")
        #expect(pairs(headers) == ["Accept: a"])
    }

    @Test func mergingReplacesFieldsOfTheSameNameAndAppendsTheOthersInOrder() {
        var headers: HTTPHeaders = ["Accept": "a", "User-Agent": "app", "X-Tag": "1"]
        var other = HTTPHeaders()
        other.add(name: "x-tag", value: "2")
        other.add(name: "X-Tag", value: "3")
        other.add(name: "Authorization", value: "Bearer t")
        headers.merge(other)
        #expect(pairs(headers) == ["Accept: a", "User-Agent: app", "x-tag: 2", "X-Tag: 3", "Authorization: Bearer t"])
    }

    @Test(arguments: [
        (["Content-Length": "628"], 628),
        (["content-length": " \t628\t "], 628),
        (["Content-Length": "628", "Content-Encoding": " Identity "], 628),
        (["Content-Length": "628", "Content-Encoding": "gzip"], nil),
        (["Content-Length": "62 8"], nil),
        (["Content-Length": "+628"], nil),
        (["Content-Length": " \u{301}628"], nil),
        (["Content-Length": "  "], nil),
        (["Content-Length": "1234567890123456789"], nil),
        (["Content-Type": "text/plain"], nil),
    ] as [([String: String], Int?)])
    func theDeclaredBodyLengthIsAPlainCountOfAnUnencodedBody(_ fields: [String: String], length: Int?) {
        var headers = HTTPHeaders()
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { headers.add(name: name, value: value) }
        #expect(headers.declaredBodyLength == length)
    }

    @Test func aChangedCopyNeverShowsInTheOriginal() {
        let original: HTTPHeaders = ["Accept": "a", "X-Tag": "1"]
        var set = original, removed = original, merged = original, added = original
        set["Accept"] = "b"
        set["Authorization"] = "Bearer t"
        removed.remove("X-Tag")
        merged.merge(["X-Tag": "2"])
        added.add(name: "Accept", value: "c")
        #expect(pairs(original) == ["Accept: a", "X-Tag: 1"])
        #expect(pairs(set) == ["Accept: b", "X-Tag: 1", "Authorization: Bearer t"])
        #expect(pairs(removed) == ["Accept: a"])
        #expect(pairs(merged) == ["Accept: a", "X-Tag: 2"])
        #expect(pairs(added) == ["Accept: a", "X-Tag: 1", "Accept: c"])
    }
}
