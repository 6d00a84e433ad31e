import Foundation
@testable import Gateway
import GatewayTesting
import Testing

extension TokenTests {
    /// An app killed at any point of a refresh starts again with a credential whose refresh token
    /// the server still accepts, or with none; never with a spent one.
    @Suite(.timeLimit(.minutes(1))) struct RefreshCrashTests {
        /// Where the first process dies.
        enum CrashPoint: String, CaseIterable, Sendable, CustomTestStringConvertible {
            /// A request's 401 is in; no refresh has started.
            case beforeRefresh
            /// The refresh has started; its request has not been sent.
            case beforeRefreshCall
            /// The server has spent the refresh token; its answer is on the way.
            case duringRefreshCall
            /// The authenticator has the new credential; the coordinator has not saved it.
            case answeredBeforeSave
            /// The store was writing the new credential.
            case duringSave
            /// The new credential is saved; no waiting request has gone on.
            case afterSave
            /// A waiting request went on and its replay is at the server.
            case waitersResumed

            var testDescription: String { rawValue }

            /// Whether a credential is left to find (the server still accepts its refresh token).
            var leavesACredential: Bool { [.beforeRefresh, .afterSave, .waitersResumed].contains(self) }
        }

        @Test(arguments: CrashPoint.allCases, Disk.Kind.allCases)
        func aRestartFindsACredentialTheServerAcceptsOrNone(point: CrashPoint, kind: Disk.Kind) async throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let disk = Disk(kind, folder: folder.url)
            let server = OnceRefreshServer(refreshTokens: ["rt-1"], disk: disk)
            disk.accepts.withLock { $0 = { server.accepts($0) } }
            let process = disk.open()
            try process.save(oldCredential)

            // The first process stops at `point`: held at a gate that stays shut until the restart
            // has been checked, or killed inside a store call.
            let hold = Gate(), killed = Gate()
            let authenticator = GatedRefresh()
            switch point {
            case .beforeRefresh: server.holdFirstRefusal.withLock { $0 = hold }
            case .beforeRefreshCall: authenticator.beforeCall.withLock { $0 = hold }
            case .duringRefreshCall: server.holdFirstRefresh.withLock { $0 = hold }
            case .answeredBeforeSave: authenticator.afterAnswer.withLock { $0 = hold }
            case .duringSave: process.beforeSave.withLock { $0 = { process.crash(); killed.open() } }
            case .afterSave: process.afterSave.withLock { $0 = { process.crash(); killed.open() } }
            case .waitersResumed: server.holdFirstAccepted.withLock { $0 = hold }
            }
            let provider = tokenProvider(server, store: process) { $0.authenticator = authenticator }
            let request = Task { try await provider.send(Endpoint<Empty>.get("items")) }
            if point == .duringSave || point == .afterSave {
                try await killed.wait()
            } else {
                await hold.waitForArrivals(1)
                process.crash()
            }

            // The app starts again on the same disk.
            let restarted = tokenProvider(server, store: disk.open())
            let found = try await restarted.tokenCoordinator?.credential()
            #expect((found != nil) == point.leavesACredential, "found \(found.map(\.description) ?? "none")")
            if let found {
                #expect(server.accepts(found.refreshToken ?? ""))
                let response = try await restarted.send(Endpoint<Empty>.get("items"))
                #expect(response.status == 200)
            } else {
                let error = await failure(of: restarted)
                #expect(error?.kind == .authentication)
            }
            #expect(disk.violations.value.isEmpty, "\(disk.violations.value)")
            #expect(server.violations.value.isEmpty, "\(server.violations.value)")

            // The dead process runs out; nothing it does reaches the disk.
            hold.open()
            _ = await request.result
        }
    }
}

/// The OAuth authenticator with gates before its request and after its answer, each holding the
/// first refresh that reaches it.
final class GatedRefresh: Authenticator {
    let beforeCall = Locked<Gate?>(nil)
    let afterAnswer = Locked<Gate?>(nil)
    private let oauth = RefreshTokenAuthenticator(path: "auth/refresh")

    func refresh(_ credential: Credential, using client: RefreshClient) async throws -> Credential {
        try await beforeCall.withLock { $0.take() }?.wait()
        let renewed = try await oauth.refresh(credential, using: client)
        try await afterAnswer.withLock { $0.take() }?.wait()
        return renewed
    }
}

/// A server that issues access tokens `at-N` and refresh tokens `rt-nN` and accepts each refresh
/// token once; `GET items` answers 200 to a token it issued and 401 to any other. It checks that
/// the refresh token it spends is not on the disk at that moment.
final class OnceRefreshServer: Transport {
    private struct State {
        var access: Set<String> = []
        var refresh: Set<String>
        var issued = 0
    }

    private let state: Locked<State>
    private let disk: Disk
    /// Gates that hold the first request of their kind (taken by it, so later ones pass).
    let holdFirstRefusal = Locked<Gate?>(nil)
    let holdFirstRefresh = Locked<Gate?>(nil)
    let holdFirstAccepted = Locked<Gate?>(nil)
    /// Refresh tokens spent while the disk held them.
    let violations = Locked<[String]>([])

    init(refreshTokens: Set<String>, disk: Disk) {
        state = Locked(State(refresh: refreshTokens))
        self.disk = disk
    }

    /// Whether a refresh with `refreshToken` would succeed now.
    func accepts(_ refreshToken: String) -> Bool { state.withLock { $0.refresh.contains(refreshToken) } }

    func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        StreamedResponse(try await answer(request))
    }

    private func answer(_ request: HTTPRequest) async throws -> HTTPResponse {
        if request.url.path.hasSuffix("/auth/refresh") { return try await refresh(request) }
        let bearer = request.headers["Authorization"]?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
        if state.withLock({ $0.access.contains(bearer) }) {
            try await holdFirstAccepted.withLock { $0.take() }?.wait()
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("{}".utf8),
                                url: request.url)
        }
        try await holdFirstRefusal.withLock { $0.take() }?.wait()
        return HTTPResponse(status: 401, headers: ["Content-Type": "application/json"],
                            body: Data(#"{"error":"invalid_token"}"#.utf8), url: request.url)
    }

    private func refresh(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard case .data(let body)? = request.body,
              let presented = (try? JSONSerialization.jsonObject(with: body) as? [String: String])?["refresh_token"]
        else { return HTTPResponse(status: 400, body: Data(), url: request.url) }
        if (try? disk.contents())?.refreshToken == presented {
            violations.withLock { $0.append("\(presented) was spent while the disk held it") }
        }
        let issued = state.withLock { state -> Int? in
            guard state.refresh.remove(presented) != nil else { return nil }
            state.issued += 1
            state.access.insert("at-\(state.issued)")
            state.refresh.insert("rt-n\(state.issued)")
            return state.issued
        }
        guard let issued else {
            return HTTPResponse(status: 400, headers: ["Content-Type": "application/json"],
                                body: Data(#"{"error":"invalid_grant"}"#.utf8), url: request.url)
        }
        try await holdFirstRefresh.withLock { $0.take() }?.wait()
        let answer = #"{"access_token":"at-\#(issued)","token_type":"Bearer","refresh_token":"rt-n\#(issued)","#
            + #""expires_in":3600}"#
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(answer.utf8),
                            url: request.url)
    }
}
