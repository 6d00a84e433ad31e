import Foundation

extension Provider {
    /// Everything about a provider except its base URL and transport; set once in `init`.
    ///
    /// ```swift
    /// let provider = Provider(baseURL: api) { config in
    ///     config.headers["Accept-Language"] = "en"
    ///     config.interceptors = [APIKey(key: key)]
    ///     config.jsonDecoding = JSONDecodingOptions(dates: .iso8601, keys: .convertFromSnakeCase)
    ///     config.timeout = .seconds(15)
    /// }
    /// ```
    public struct Configuration: Sendable {
        /// Header fields sent with every request; an endpoint's own fields replace these by name.
        public var headers: HTTPHeaders = ["User-Agent": "Gateway"]
        /// Interceptors, in order (steps 6 and 8).
        public var interceptors: [any Interceptor] = []
        /// Observers of every lifecycle event.
        public var observers: [any Observer] = []
        /// JSON settings for `.json` bodies that do not bring their own.
        public var jsonEncoding = JSONEncodingOptions()
        /// JSON settings for decoding values and API error bodies that do not bring their own.
        public var jsonDecoding = JSONDecodingOptions()
        /// The default longest wait for any single network activity (connecting, the first byte,
        /// the next piece of the body): 60 s. It bounds each attempt; `deadline` bounds the call.
        public var timeout: Duration? = .seconds(60)
        /// The default budget of a whole call from the start of `send`: 30 s.
        ///
        /// It covers the queue, every attempt, redirect and retry wait: a retry whose back-off or
        /// `Retry-After` would end past it is not waited for, and an attempt under way when it
        /// passes is cut off, so a server that accepts the connection and never answers fails
        /// the call with a `.timeout` error naming this deadline within 30 s. Raise it for large
        /// uploads and downloads (an endpoint's own `deadline` wins); `nil` sets no deadline.
        public var deadline: Duration? = .seconds(30)
        /// The default largest response body accepted: 10 MiB.
        public var maxResponseBytes = HTTPRequest.defaultMaxResponseBytes
        /// The most attempts one request makes through error retries (the retry policy's and
        /// interceptors' `.retry`): 5, which is also the most it can be (values outside 1...5
        /// are clamped). Auth replays are counted apart, up to `maxAuthReplays`.
        public var maxAttempts = RetryPolicy.attemptLimit
        /// The most auth replays (an interceptor's `.replay`) one request makes: 2.
        public var maxAuthReplays = 2
        /// When and how soon failed requests are sent again (step 8, after the interceptors):
        /// 2 retries of idempotent requests with jittered exponential back-off by default;
        /// `.none` never retries.
        public var retryPolicy = RetryPolicy()
        /// The request queue (step 3): a `PriorityRequestQueue` with a cap of 6 by default, one
        /// per configuration (`.immediate` dispatches everything at once).
        public var queue: any RequestQueue = PriorityRequestQueue()
        /// Where deadlines, retry back-off and `Retry-After` dates read the time; real time by
        /// default.
        public var clock: any TimeSource = SystemTimeSource()
        /// Tells whether the network is usable; `nil` (the default) never checks. With a
        /// monitor, an attempt on an unusable network (to any host but loopback) fails at once
        /// with a transport error, or waits when `waitsForConnectivity` is set.
        public var reachability: (any ReachabilityMonitor)?
        /// Whether requests wait for the network to become usable (bounded by their deadline,
        /// or their timeout when they have none) instead of failing at once; a request's own
        /// `waitsForConnectivity` wins.
        public var waitsForConnectivity = false
        /// The auth stage (step 4); attaches nothing by default. Replaced by the token stage when
        /// `tokens` or `tokenCoordinator` is set.
        public var auth: any AuthStage = NoAuthentication()
        /// Where the session's credential is kept, shared by REST and GraphQL requests; `nil` (the
        /// default) attaches no token. When set, the provider's `TokenCoordinator` attaches the
        /// credential to requests that require authentication and go to its own origins,
        /// refreshes it one refresh at a time and replays refused requests.
        public var tokens: (any TokenStore)?
        /// How the credential is renewed, attached and recognised as refused; by default it is
        /// attached as `Authorization: Bearer` and never renewed.
        public var authenticator: any Authenticator = NonRefreshingAuthenticator()
        /// The proactive refresh window (30 s) and the refresh guard (5 per 30 s).
        public var tokenOptions = TokenCoordinator.Options()
        /// A coordinator shared with other providers (one session, one refresh at a time for all
        /// of them); set instead of `tokens`, and it wins over `tokens`, `authenticator`,
        /// `tokenOptions` and `authObservers`.
        public var tokenCoordinator: TokenCoordinator?
        /// Origins besides the base URL's that receive the credential (the scheme, host and
        /// port of each URL); none by default.
        public var credentialOrigins: [URL] = []
        /// Told about refreshes, expired sessions and logout (the hook for purging a user's cache
        /// partition); a `cache` that conforms to `AuthEventObserver` is told too.
        public var authObservers: [any AuthEventObserver] = []
        /// The response cache: looks requests up before they are queued (step 2), stores what
        /// decoded (step 10), shares identical requests in flight, and purges a user's partition
        /// on logout. `nil` (the default): nothing is cached.
        public var cache: ResponseCache?
        /// How GraphQL operations are sent: the endpoint path (`graphql`), GET for queries,
        /// persisted queries, and which errors mean "not authenticated".
        public var graphQL = GraphQLSettings()
        /// What opens the WebSocket of subscriptions over graphql-transport-ws
        /// (`GraphQLSettings.subscriptions = .webSocket`): `GraphQLWebSocketClient.defaultTransport()`
        /// by default, `URLSessionWebSocketTransport` on Apple platforms and
        /// `SocketWebSocketTransport` (`ws://` only) on Linux, whose URLSession has no WebSocket
        /// support. For `wss://` on Linux use `NIOWebSocketTransport` from the
        /// `Transports/AsyncHTTPClient` package.
        public var webSocketTransport: any WebSocketTransport = GraphQLWebSocketClient.defaultTransport()
        /// How that socket is opened, kept alive and opened again: the `connection_init` payload
        /// (the token store's credential as `{"Authorization": "Bearer …"}` by default), the
        /// acknowledgement timeout, keep-alive pings, reconnection back-off and linger.
        public var webSocket = GraphQLWebSocketClient.Options()

        /// The default configuration.
        public init() {}
    }
}
