import Foundation

/// Keeps one session's credential and renews it for every request of a provider, REST and
/// GraphQL alike: one refresh at a time, whatever the number of requests that need it.
///
/// - **Single flight.** The first request that finds the credential refused (or about to
///   expire) starts the refresh; the task is stored before anything is awaited, so every other
///   request joins it instead of starting its own. Requests that need a token wait while it
///   runs, and none is sent with the old token.
/// - **After success** each waiting request goes on with the new credential, and each request
///   whose credential was refused is replayed once with it (the same body, byte for byte).
/// - **After failure** every waiting request fails at once with the same error and none is
///   sent again. A refusal of the refresh itself (`Authenticator.isRejection`) ends the session:
///   the credential is removed and observers hear `sessionExpired`.
/// - **Versions.** Every new credential gets a new version; a refusal of a credential that was
///   already replaced replays the request with the current one and refreshes nothing.
/// - **Proactive.** A credential that expires within `Options.proactiveRefreshWindow` (30 s)
///   is renewed before it is sent.
/// - **Guard.** More than `Options.maxRefreshes` (5) refreshes within
///   `Options.refreshLimitInterval` (30 s) end in a `.excessiveRefresh` error carrying the
///   refused response, instead of a loop; a later success does not reset the count.
/// - **Logout** clears the store and wins over a refresh in flight: its result is discarded,
///   the requests waiting for it fail with `.loggedOut`, nothing is replayed, and observers
///   hear `loggedOut(subject:)`.
/// - **Crash-safe store.** The store is emptied before a refresh request can spend its refresh
///   token, and brought up to date before any waiting request goes on: an app killed at any
///   moment finds a refresh token the server still accepts, or none. When the renewed
///   credential cannot be saved, the session goes on with it in memory, observers hear
///   `tokenStoreFailed`, and the store stays empty (sign in again after a restart).
///
/// A provider configured with `Configuration.tokens` makes one (`Provider.tokenCoordinator`);
/// to share a session between providers, make one and set `Configuration.tokenCoordinator`.
///
/// ```swift
/// let provider = Provider(baseURL: api) { config in
///     config.tokens = FileTokenStore(directory: tokensFolder)
///     config.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
/// }
/// let answer = try await provider.value(Endpoint<OAuthTokenResponse>.post("auth/login", body: login)
///     .withoutAuthentication())
/// try await provider.tokenCoordinator?.save(answer.credential(subject: login.username))
/// // … requests that need the credential …
/// try await provider.logout()
/// ```
public actor TokenCoordinator {
    /// When refreshes happen and how many are allowed.
    public struct Options: Sendable {
        /// A credential expiring within this is renewed before it is sent: 30 s by default.
        public var proactiveRefreshWindow: Duration
        /// The most refreshes within `refreshLimitInterval`: 5 by default.
        public var maxRefreshes: Int
        /// The interval `maxRefreshes` counts over: 30 s by default.
        public var refreshLimitInterval: Duration

        /// Creates options.
        ///
        /// - Parameters:
        ///   - proactiveRefreshWindow: how long before expiry a credential is renewed; `.zero` never.
        ///   - maxRefreshes: the most refreshes within `refreshLimitInterval` (at least 1).
        ///   - refreshLimitInterval: the interval the refreshes are counted over.
        public init(proactiveRefreshWindow: Duration = .seconds(30), maxRefreshes: Int = 5,
                    refreshLimitInterval: Duration = .seconds(30)) {
            self.proactiveRefreshWindow = proactiveRefreshWindow
            self.maxRefreshes = max(1, maxRefreshes)
            self.refreshLimitInterval = refreshLimitInterval
        }
    }

    /// What the fast path may read without entering the actor.
    struct Snapshot {
        var loaded = false
        var credential: Credential?
        var refreshing = false
        /// Whether the credential may be renewed before it expires (not when it came from a
        /// refresh already inside the window).
        var renewsEarly = true
    }

    /// A refresh under way and the requests waiting for it.
    struct Refresh {
        let id: UInt64
        /// The credential being renewed.
        let credential: Credential
        let scope: RefreshScope
        let waiters: RefreshWaiters
        var task: Task<Void, Never>?
    }

    /// Where the credential is kept.
    public nonisolated let store: any TokenStore
    /// How the credential is renewed, attached and recognised as refused.
    public nonisolated let authenticator: any Authenticator
    /// When refreshes happen and how many are allowed.
    public nonisolated let options: Options
    /// Where expiry and the refresh guard read the time.
    nonisolated let clock: any TimeSource
    let observers: [any AuthEventObserver]
    nonisolated let snapshot = Locked(Snapshot())
    nonisolated let gauge = WaiterGauge()

    var loaded = false
    var current: Credential?
    /// Grows with every change of credential (refresh, save, logout, expiry).
    public private(set) var credentialVersion: UInt64 = 0
    var renewsEarly = true
    /// The header fields of the current session's credentials, oldest first.
    var sessionHeaders: [HTTPHeaders] = []
    /// Why there is no credential: the logout or refused refresh that ended the session.
    var ending: GatewayError?
    var refresh: Refresh?
    var refreshStarts: [ContinuousClock.Instant] = []
    var nextID: UInt64 = 0
    /// The task of the latest refresh, kept after logout or `save` superseded it.
    var latestRefreshTask: Task<Void, Never>?

    /// Creates a coordinator.
    ///
    /// - Parameters:
    ///   - store: where the credential is kept; read once, on first use.
    ///   - authenticator: how the credential is renewed and attached.
    ///   - options: the proactive window and the refresh guard.
    ///   - clock: where expiry and the guard read the time; real time by default.
    ///   - observers: told about refreshes, expired sessions and logout.
    public init(store: any TokenStore, authenticator: any Authenticator = NonRefreshingAuthenticator(),
                options: Options = Options(), clock: any TimeSource = SystemTimeSource(),
                observers: [any AuthEventObserver] = []) {
        self.store = store
        self.authenticator = authenticator
        self.options = options
        self.clock = clock
        self.observers = observers
    }

    /// The current credential, read from the store on first use; `nil` when nobody is signed in.
    ///
    /// - Throws: the store's error when the stored credential cannot be read.
    public func credential() throws -> Credential? {
        try loadIfNeeded()
        return current
    }

    /// The signed-in account (the credential's subject), which names the user's cache partition.
    ///
    /// - Throws: the store's error when the stored credential cannot be read.
    public func subject() throws -> String? { try credential()?.subject }

    /// Makes `credential` the session's (after a login): it is stored first, then requests
    /// waiting for a refresh go on with it, and the result of a refresh still under way is
    /// discarded.
    ///
    /// ```swift
    /// let answer = try await provider.value(Endpoint<OAuthTokenResponse>.post("auth/login", body: login)
    ///     .withoutAuthentication())
    /// try await provider.tokenCoordinator?.save(answer.credential(subject: login.username))
    /// ```
    ///
    /// - Throws: the store's error; the credential is used from memory all the same (until the
    ///   app quits: the store then holds what it held before).
    public func save(_ credential: Credential) throws {
        var storeError: (any Error)?
        do { try store.save(credential) } catch { storeError = error }
        loaded = true
        replace(with: credential, renewsEarly: true, newSession: true)
        ending = nil
        if let refresh {
            self.refresh = nil
            refresh.waiters.settle(.success(credential))
        }
        publish()
        if let storeError { throw storeError }
    }

    /// Ends the session: the store is cleared first, then a refresh under way is discarded,
    /// requests waiting for it fail with `.loggedOut` and nothing is replayed; then observers'
    /// `loggedOut(subject:)` runs (purge the user's cache partition there).
    ///
    /// - Throws: the store's error when the credential could not be removed from it (the
    ///   session has ended in memory all the same, and observers were told).
    public func logout() async throws {
        let subject = (try? loadIfNeeded()).flatMap { current?.subject }
        var storeError: (any Error)?
        do { try store.clear() } catch { storeError = error }
        loaded = true
        replace(with: nil, renewsEarly: true, newSession: true)
        let failure = Self.loggedOutError()
        ending = failure
        if let refresh {
            self.refresh = nil
            refresh.waiters.settle(.failure(failure))
        }
        publish()
        for observer in observers { await observer.loggedOut(subject: subject) }
        if let storeError { throw storeError }
    }

    // MARK: - State

    func loadIfNeeded() throws {
        guard !loaded else { return }
        let stored = try store.load()
        loaded = true
        replace(with: stored, renewsEarly: true, newSession: true)
        publish()
    }

    /// Makes `credential` the current one, with a new version; `newSession` when it does not
    /// renew the previous one (sign-in, logout, an ended session).
    func replace(with credential: Credential?, renewsEarly: Bool, newSession: Bool) {
        current = credential
        credentialVersion += 1
        self.renewsEarly = renewsEarly
        if newSession { sessionHeaders = [] }
        if let credential {
            sessionHeaders.append(authenticator.headers(for: credential))
            if sessionHeaders.count > Self.sessionHeadersKept { sessionHeaders.removeFirst() }
        }
    }

    /// Whether `headers` carry a credential of the current session (the current one or one it
    /// renewed), rather than one of a session that logout or sign-in ended.
    func isOfCurrentSession(_ headers: HTTPHeaders) -> Bool {
        sessionHeaders.contains { attached in attached.allSatisfy { headers[$0.name] == $0.value } }
    }

    /// How many of the session's credentials `isOfCurrentSession` recognises.
    static let sessionHeadersKept = 32

    /// Copies the state the fast path reads.
    func publish() {
        let state = Snapshot(loaded: loaded, credential: current, refreshing: refresh != nil, renewsEarly: renewsEarly)
        snapshot.withLock { $0 = state }
    }

    /// Whether `credential` is due for a proactive refresh now.
    nonisolated func isDue(_ credential: Credential, renewsEarly: Bool) -> Bool {
        renewsEarly && options.proactiveRefreshWindow > .zero
            && credential.expires(within: options.proactiveRefreshWindow, of: clock.date)
            && authenticator.canRefresh(credential)
    }

    /// The credential to attach without entering the actor: when it is loaded, no refresh runs
    /// and it is not due for renewal; otherwise `nil` (ask the actor).
    nonisolated func readyCredential() -> Credential? {
        let state = snapshot.value
        guard state.loaded, !state.refreshing, let credential = state.credential,
              !isDue(credential, renewsEarly: state.renewsEarly)
        else { return nil }
        return credential
    }

    /// How many requests wait for the refresh under way.
    package nonisolated var waiterCount: Int { gauge.count }

    /// Returns once at least `count` requests wait for the refresh under way (a synchronisation
    /// point for tests).
    package nonisolated func waitForWaiters(_ count: Int) async {
        await gauge.wait(for: count)
    }

    /// Returns once the latest refresh has ended and been settled (or discarded), even one that
    /// logout superseded (a synchronisation point for tests).
    package func latestRefreshSettled() async {
        await latestRefreshTask?.value
    }

    /// Whether `headers` carry `credential` as the authenticator attaches it.
    nonisolated func carries(_ headers: HTTPHeaders, _ credential: Credential) -> Bool {
        authenticator.headers(for: credential).allSatisfy { headers[$0.name] == $0.value }
    }
}
