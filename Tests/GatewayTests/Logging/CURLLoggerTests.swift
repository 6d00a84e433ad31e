import Foundation
@testable import Gateway
import GatewayTesting
import Testing

/// Collects what a logger writes.
final class LogSink: Sendable {
    private let lines = Locked<[String]>([])
    var text: String { lines.value.joined(separator: "\n") }
    var entries: [String] { lines.value }
    func write(_ text: String) { lines.withLock { $0.append(text) } }
}

@Suite struct CURLLoggerTests {
    static let token = "tok9f8e7d6c5b4aSECRET"

    /// Every way a request or response carries the token.
    static func exchanges() -> [Endpoint<Data>] {
        let token = Self.token
        let json: [String: AnyEncodable] = [
            "username": AnyEncodable("ada"), "password": AnyEncodable(token),
            "nested": AnyEncodable(["refresh_token": AnyEncodable(token),
                                    "list": AnyEncodable([["idToken": token, "clientSecret": token]])]),
        ]
        return [
            Endpoint<Data>.get("me", query: [URLQueryItem(name: "access_token", value: token)]),
            Endpoint<Data>.get("me", headers: ["Cookie": "session=\(token)", "X-API-Key": token, "X-Session": token]),
            Endpoint<Data>.post("login", body: json),
            Endpoint<Data>.post("login", body: ["password": token, "client_secret": token, "user": "ada"],
                                encoder: .form),
            Endpoint<Data>.get("graphql", query: [URLQueryItem(name: "query", value: "query { me { id } }"),
                                                  URLQueryItem(name: "variables", value: #"{"password":"\#(token)"}"#)]),
            Endpoint<Data>.post("notes", body: "my token is \(token)", encoder: .raw(contentType: "text/plain")),
            Endpoint<Data>.post("upload", body: MultipartForm([.text("token", token)]), encoder: .multipart),
            Endpoint<Data>.get("https://user:\(token)@api.example.com/v1/basic").with { $0.pathOptions = .allowAbsoluteURL },
            Endpoint<Data>.get("flaky", query: [URLQueryItem(name: "Token", value: token)]),
            Endpoint<Data>.get("denied", query: [URLQueryItem(name: "refreshToken", value: token)]),
        ]
    }

    @Test func aThousandLoggedExchangesCarryingAKnownTokenNeverShowIt() async throws {
        let token = Self.token
        let stub = StubTransport(unmatched: .notFound)
            .on(.get, "flaky", reply: .status(503), .json("{}"))
            .on(.get, "denied", reply: .json(#"{"error": "\#(token) is not valid"}"#, status: 401))
            .on(StubMatcher(), reply: [.json(#"{"access_token": "\#(token)"}"#, headers: [
                "Set-Cookie": "session=\(token); HttpOnly", "X-Request": "1",
            ])])
        let sink = LogSink()
        let logger = CURLLogger(rules: .standard.adding(headers: ["X-Session"]), logsResponseHeaders: true,
                                write: sink.write)
        let provider = makeProvider(stub) {
            $0.auth = .bearer(token)
            $0.observers = [logger]
            $0.clock = ManualClock(advancesOnSleep: true)
        }
        let exchanges = Self.exchanges()
        var failures: [GatewayError] = []
        for index in 0..<1_000 {
            do {
                _ = try await provider.send(exchanges[index % exchanges.count])
            } catch let error as GatewayError {
                failures.append(error)
            }
        }
        #expect(stub.requests.contains { $0.url.absoluteString.contains(token) || $0.bodyText.contains(token) })
        let output = sink.text
        #expect(output.components(separatedBy: token).count - 1 == 0,
                "\(sink.entries.filter { $0.contains(token) }.prefix(3))")
        #expect(output.components(separatedBy: "curl ").count - 1 == stub.requests.count)
        #expect(output.contains("-H 'Authorization: <redacted>'"))
        #expect(output.contains("# < Set-Cookie: <redacted>"))
        #expect(output.contains(#""password":"<redacted>""#))
        #expect(output.contains("password=<redacted>"))
        #expect(output.contains("bytes of text/plain, not shown>"))
        #expect(output.contains("retrying after attempt 1"))
        #expect(output.contains("metrics: total"))
        #expect(failures.count == 100)
        for error in failures {
            var dumped = ""
            dump(error, to: &dumped)
            #expect(!error.description.contains(token) && !dumped.contains(token))
        }
    }

    @Test func showingSecretsIsAnExplicitOptIn() async throws {
        let stub = StubTransport().on(.post, "login", reply: .status(204))
        let hidden = LogSink(), shown = LogSink()
        let provider = makeProvider(stub) {
            $0.auth = .bearer(Self.token)
            $0.observers = [CURLLogger(write: hidden.write), CURLLogger(showingSecrets: true, write: shown.write)]
        }
        _ = try await provider.send(Endpoint<Empty>.post("login", body: ["password": Self.token]))
        #expect(!hidden.text.contains(Self.token))
        #expect(shown.text.contains("Authorization: Bearer \(Self.token)"))
        #expect(shown.text.contains(#"{"password":"\#(Self.token)"}"#))
    }

    @Test func theCommandLineIsQuotedForTheShell() throws {
        let request = HTTPRequest(
            method: .post, url: try #require(URL(string: "https://api.example.com/v1/x?a=1&token=abc")),
            headers: ["Content-Type": "application/json", "Authorization": "Bearer abc", "X-Note": "it's"],
            body: .data(Data(#"{"name":"O'Brien","password":"abc"}"#.utf8)))
        #expect(CURLLogger().command(for: request) == """
            curl -X POST 'https://api.example.com/v1/x?a=1&token=<redacted>' -H 'Content-Type: application/json' \
            -H 'Authorization: <redacted>' -H 'X-Note: it'\\''s' --data-binary '{"name":"O'\\''Brien","password":"<redacted>"}'
            """)
        let get = HTTPRequest(method: .get, url: try #require(URL(string: "https://api.example.com/v1/me")))
        #expect(CURLLogger().command(for: get) == "curl 'https://api.example.com/v1/me'")
    }

    @Test func bodiesThatCannotBeRedactedFieldByFieldAreDescribed() throws {
        let url = try #require(URL(string: "https://api.example.com/v1/x"))
        let logger = CURLLogger()
        let invalidJSON = HTTPRequest(method: .post, url: url, headers: ["Content-Type": "application/json"],
                                      body: .data(Data(#"{"password": "abc""#.utf8)))
        #expect(logger.command(for: invalidJSON).hasSuffix("--data-binary '<18 bytes of application/json, not shown>'"))
        let file = HTTPRequest(method: .post, url: url, body: .file(url, length: 9000, removeAfterSending: false))
        #expect(logger.command(for: file).hasSuffix("--data-binary '<9000 bytes from a file, not shown>'"))
        let big = HTTPRequest(method: .post, url: url, headers: ["Content-Type": "application/json"],
                              body: .data(Data(("[" + String(repeating: "1,", count: 40_000) + "1]").utf8)))
        #expect(logger.command(for: big).contains("not shown>"))
    }

    @Test func rulesMatchNamesWithoutCaseOrSeparators() {
        let rules = RedactionRules.standard.adding(headers: ["X-Session"], queryItems: ["sig2"], bodyFields: ["pin"])
        #expect(rules.isSensitiveHeader("x-session") && rules.isSensitiveHeader("COOKIE"))
        #expect(!rules.isSensitiveHeader("Accept"))
        #expect(rules.isSensitiveField("accessToken") && rules.isSensitiveField("ACCESS-TOKEN"))
        #expect(rules.isSensitiveField("PIN") && rules.isSensitiveQueryItem("sig2"))
        #expect(!rules.isSensitiveField("username"))
        let value = rules.redact(["a": ["b": ["pin": 1234, "keep": true]], "list": [["Password": ["x": 1]]]])
        #expect(value.serialized(.compact) == #"{"a":{"b":{"pin":"<redacted>","keep":true}},"list":[{"Password":"<redacted>"}]}"#)
    }
}

/// Any encodable value, for mixed JSON bodies in tests.
struct AnyEncodable: Encodable, Sendable {
    private let encodeValue: @Sendable (any Encoder) throws -> Void
    init<T: Encodable & Sendable>(_ value: T) { encodeValue = { try value.encode(to: $0) } }
    func encode(to encoder: any Encoder) throws { try encodeValue(encoder) }
}
