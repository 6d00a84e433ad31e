#if canImport(Testing)
import Foundation
import Gateway
import Testing

extension TransportConformance {
    static let credentials: HTTPHeaders = [
        "Authorization": "Bearer secret-token", "Cookie": "session=abc", "Proxy-Authorization": "Basic cHJveHk=",
        "X-Trace": "t-9",
    ]

    func runRedirect(_ check: Check) async throws {
        switch check {
        case .aSameOriginRedirectKeepsEveryHeader: try await sameOrigin()
        case .aCrossOriginRedirectArrivesWithoutCredentials: try await crossOrigin()
        case .credentialsDoNotComeBackWhenTheChainReturnsToTheFirstOrigin: try await returnToFirstOrigin()
        case .aSeeOtherAfterAPostContinuesAsAGetWithoutTheBody: try await seeOther()
        case .aTemporaryRedirectResendsTheMethodAndTheBody: try await temporaryRedirect()
        case .aTemporaryRedirectResendsAFileBodyByteForByte: try await temporaryRedirectWithFile()
        case .twentyRedirectsAreFollowed: try await twentyRedirects()
        case .theTwentyFirstRedirectEndsWithTooManyRedirects: try await twentyOneRedirects()
        case .theRedirectLimitCanBeLowered: try await loweredLimit()
        case .aRedirectToANonHTTPSchemeIsRefused: try await nonHTTPScheme()
        case .aRedirectWithoutLocationIsTheFinalResponse: try await noLocation()
        default: Issue.record("\(check) is not a redirect check")
        }
    }

    private func sameOrigin() async throws {
        let server = try LoopbackServer { request in
            request.path == "/old" ? .redirect(to: "/new?x=1") : .text("arrived")
        }
        defer { server.shutdown() }
        let request = try Self.request(server, "/old", headers: Self.credentials)
        let response = try await withTransport { try await Self.collect($0, request) }

        #expect(Self.text(response.body) == "arrived")
        #expect(response.transportMetrics.redirects == 1)
        #expect(response.url?.path == "/new")
        let followed = try #require(server.requests.last)
        #expect(server.requests.count == 2)
        #expect(followed.target == "/new?x=1")
        #expect(followed.headers["Authorization"] == "Bearer secret-token")
        #expect(followed.headers["Cookie"] == "session=abc")
        #expect(followed.headers["Proxy-Authorization"] == "Basic cHJveHk=")
        #expect(followed.headers["X-Trace"] == "t-9")
    }

    private func crossOrigin() async throws {
        for status in [301, 302, 303, 307, 308] {
            let other = try LoopbackServer { _ in .text("elsewhere") }
            defer { other.shutdown() }
            let target = try other.url("/landing")
            let server = try LoopbackServer { _ in .redirect(to: target, status: status) }
            defer { server.shutdown() }
            let request = try Self.request(server, "/start", headers: Self.credentials)
            let response = try await withTransport { try await Self.collect($0, request) }

            #expect(Self.text(response.body) == "elsewhere", "status \(status)")
            #expect(server.requests.first?.headers["Authorization"] == "Bearer secret-token")
            let arrived = try #require(other.requests.first, "status \(status)")
            #expect(!arrived.headers.contains("Authorization"), "status \(status)")
            #expect(!arrived.headers.contains("Cookie"), "status \(status)")
            #expect(!arrived.headers.contains("Proxy-Authorization"), "status \(status)")
            #expect(arrived.headers["X-Trace"] == "t-9", "status \(status)")
        }
    }

    private func returnToFirstOrigin() async throws {
        let home = LockedText()
        let other = try LoopbackServer { _ in .redirect(to: home.value ?? "/") }
        defer { other.shutdown() }
        let bounce = try other.url("/bounce")
        let server = try LoopbackServer { request in
            request.path == "/start" ? .redirect(to: bounce) : .text("home again")
        }
        defer { server.shutdown() }
        home.value = try server.url("/back").absoluteString
        let request = try Self.request(server, "/start", headers: Self.credentials)
        let response = try await withTransport { try await Self.collect($0, request) }

        #expect(Self.text(response.body) == "home again")
        #expect(response.transportMetrics.redirects == 2)
        let back = try #require(server.requests.last)
        #expect(back.path == "/back")
        #expect(!back.headers.contains("Authorization"))
        #expect(!back.headers.contains("Cookie"))
    }

    private func seeOther() async throws {
        let server = try LoopbackServer { request in
            request.path == "/submit"
                ? .redirect(to: "/result", status: 303) : .text("\(request.method) \(request.body.count)")
        }
        defer { server.shutdown() }
        let request = try Self.request(
            server, "/submit", method: .post, headers: ["Content-Type": "application/json"],
            body: .data(Data("{}".utf8)))
        let response = try await withTransport { try await Self.collect($0, request) }
        #expect(Self.text(response.body) == "GET 0")
        #expect(server.requests.last?.headers.contains("Content-Type") == false)
    }

    private func temporaryRedirect() async throws {
        let body = Self.bytes(10_000, seed: 11)
        let server = try LoopbackServer { request in
            request.path == "/v1" ? .redirect(to: "/v2", status: 307) : .data(request.body)
        }
        defer { server.shutdown() }
        let request = try Self.request(
            server, "/v1", method: .put, headers: ["Content-Type": "application/octet-stream"], body: .data(body))
        let response = try await withTransport { try await Self.collect($0, request) }
        #expect(Self.difference(response.body, from: body) == nil)
        #expect(server.requests.map(\.method) == ["PUT", "PUT"])
    }

    private func temporaryRedirectWithFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gateway-conformance-\(UUID().uuidString).bin")
        let contents = Self.bytes(200_000, seed: 13)
        try contents.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try LoopbackServer { request in
            request.path == "/upload" ? .redirect(to: "/v2/upload", status: 307) : .text("\(request.body.count)")
        }
        defer { server.shutdown() }
        let request = try Self.request(
            server, "/upload", method: .post, headers: ["Content-Type": "application/octet-stream"],
            body: .file(file, length: Int64(contents.count), removeAfterSending: false))
        let response = try await withTransport { try await Self.collect($0, request) }
        #expect(Self.text(response.body) == "\(contents.count)")
        #expect(server.requests.map { "\($0.method) \($0.path)" } == ["POST /upload", "POST /v2/upload"])
        #expect(server.requests.allSatisfy { $0.body == contents })
    }

    /// `/hop/N` redirects to `/hop/N-1`; `/hop/0` answers.
    private func hopServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            let n = Int(request.path.split(separator: "/").last ?? "") ?? 0
            return n == 0 ? .text("landed") : .redirect(to: "/hop/\(n - 1)")
        }
    }

    private func twentyRedirects() async throws {
        let server = try hopServer()
        defer { server.shutdown() }
        let response = try await withTransport { try await Self.collect($0, try Self.request(server, "/hop/20")) }
        #expect(Self.text(response.body) == "landed")
        #expect(response.transportMetrics.redirects == 20)
    }

    private func twentyOneRedirects() async throws {
        let server = try hopServer()
        defer { server.shutdown() }
        let error = try await failure(of: try Self.request(server, "/hop/21"))
        #expect(error?.kind == .tooManyRedirects)
        #expect(error?.response?.status == 302)
        #expect(server.requests.count == 21)
    }

    private func loweredLimit() async throws {
        let server = try hopServer()
        defer { server.shutdown() }
        let error = try await failure(
            of: try Self.request(server, "/hop/3"), settings: Settings(timeout: .seconds(30), maxRedirects: 2))
        #expect(error?.kind == .tooManyRedirects)
        #expect(server.requests.count == 3)
    }

    private func nonHTTPScheme() async throws {
        let server = try LoopbackServer { _ in .redirect(to: "ftp://127.0.0.1/file") }
        defer { server.shutdown() }
        let error = try await failure(of: try Self.request(server, "/"))
        #expect(error?.kind == .redirectRefused)
    }

    private func noLocation() async throws {
        let server = try LoopbackServer { _ in
            .text("moved, but where?", status: 302, headers: ["X-Why": "no location"])
        }
        defer { server.shutdown() }
        let response = try await withTransport { try await Self.collect($0, try Self.request(server, "/")) }
        #expect(response.status == 302)
        #expect(response.headers["X-Why"] == "no location")
        #expect(server.requests.count == 1)
    }
}

/// A string set after the servers that use it exist.
private final class LockedText: Sendable {
    private let storage = Locked<String?>(nil)
    var value: String? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
#endif
