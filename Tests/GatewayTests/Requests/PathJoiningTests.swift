import Foundation
import Gateway
import Testing

@Suite struct PathJoiningTests {
    private func join(_ base: String, _ path: String, _ options: PathOptions = []) throws -> String {
        try PreparedRequest.url(URL(string: base)!, path, options: options).absoluteString
    }

    @Test(arguments: [
        ("https://api.example.com/v1/", "users/42", "https://api.example.com/v1/users/42"),
        ("https://api.example.com/v1", "users/42", "https://api.example.com/v1/users/42"),
        ("https://api.example.com/v1", "/users/42", "https://api.example.com/v1/users/42"),
        ("https://api.example.com/v1/", "//users///42", "https://api.example.com/v1/users/42"),
        ("https://api.example.com/v1/", "users/", "https://api.example.com/v1/users/"),
        ("https://api.example.com", "users", "https://api.example.com/users"),
        ("https://api.example.com/v1/", "", "https://api.example.com/v1/"),
        ("https://api.example.com:8443/v1/", "a", "https://api.example.com:8443/v1/a"),
        ("http://127.0.0.1:8080/", "health", "http://127.0.0.1:8080/health"),
    ])
    func pathsJoinUnderTheBasePath(base: String, path: String, expected: String) throws {
        #expect(try join(base, path) == expected)
    }

    @Test(arguments: [
        ("john doe", "john%20doe"),
        ("a%2Fb", "a%2Fb"),
        ("100%", "100%25"),
        ("%zz", "%25zz"),
        ("café", "caf%C3%A9"),
        ("a:b@c;d=e", "a:b@c;d=e"),
        ("back\\slash", "back%5Cslash"),
        ("tab\there", "tab%09here"),
        ("<x>\"{|}^`", "%3Cx%3E%22%7B%7C%7D%5E%60"),
    ])
    func segmentsArePercentEncoded(segment: String, expected: String) throws {
        #expect(try join("https://api.example.com/v1/", "files/" + segment) == "https://api.example.com/v1/files/" + expected)
    }

    @Test(arguments: [
        "../admin", "a/../../admin", "./x", "%2e%2e/admin", "%2E%2E", "..%2Fadmin", "x/..%2F..%2Fetc",
        "..\\admin", "a/.%2e/b", "..;/admin", "a/..;x=1/b",
    ])
    func dotSegmentsAreRefused(path: String) throws {
        let error = try #require(throws: GatewayError.self) { try join("https://api.example.com/v1/", path) }
        #expect(error.kind == .invalidRequest)
        #expect(error.message.contains("'..'"))
        #expect(error.fix?.contains("allowDotSegments") == true)
    }

    @Test(arguments: ["https://evil.example/x", "http://evil.example", "HTTPS://evil.example/", "ftp://evil.example/f"])
    func absoluteURLsAreRefused(path: String) throws {
        let error = try #require(throws: GatewayError.self) { try join("https://api.example.com/v1/", path) }
        #expect(error.kind == .invalidRequest)
        #expect(error.message.contains("absolute URL"))
    }

    @Test func aProtocolRelativePathStaysOnTheBaseHost() throws {
        #expect(try join("https://api.example.com/v1/", "//evil.example/x") == "https://api.example.com/v1/evil.example/x")
    }

    @Test func aColonInARelativePathIsNotAScheme() throws {
        #expect(try join("https://api.example.com/v1/", "users:42") == "https://api.example.com/v1/users:42")
    }

    @Test(arguments: ["users?page=2", "users#top"])
    func queriesAndFragmentsInThePathAreRefused(path: String) throws {
        let error = try #require(throws: GatewayError.self) { try join("https://api.example.com/v1/", path) }
        #expect(error.kind == .invalidRequest)
    }

    @Test func dotSegmentsResolveWhenAllowed() throws {
        #expect(try join("https://api.example.com/v1/", "../v2/users", .allowDotSegments)
            == "https://api.example.com/v2/users")
        #expect(try join("https://api.example.com/v1/", "../../../x", .allowDotSegments) == "https://api.example.com/x")
        #expect(throws: GatewayError.self) { try join("https://api.example.com/v1/", "..%2Fx", .allowDotSegments) }
    }

    @Test func absoluteURLsAreUsedWhenAllowed() throws {
        #expect(try join("https://api.example.com/v1/", "https://cdn.example.com/file", .allowAbsoluteURL)
            == "https://cdn.example.com/file")
        #expect(throws: GatewayError.self) {
            try join("https://api.example.com/v1/", "ftp://cdn.example.com/file", .allowAbsoluteURL)
        }
    }

    @Test(arguments: ["file:///etc/passwd", "mailto:a@example.com", "/relative/only"])
    func aBaseURLMustBeAbsoluteHTTP(base: String) throws {
        let error = try #require(throws: GatewayError.self) { try join(base, "x") }
        #expect(error.kind == .invalidRequest)
        #expect(error.message.contains("base URL"))
    }

    @Test func hostilePathsNeverCrash() throws {
        let hostile = [String(repeating: "../", count: 10_000), String(repeating: "%", count: 5_000),
                       String(repeating: "a/", count: 20_000), "\u{0}\u{1}\u{7F}", "\u{FEFF}é\u{10FFFF}", "%", "%%%"]
        for path in hostile {
            do {
                let url = try join("https://api.example.com/v1/", path)
                #expect(url.hasPrefix("https://api.example.com/v1/"))
            } catch let error as GatewayError {
                #expect(error.kind == .invalidRequest)
            }
        }
    }
}
