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
        /// Interceptors, in order (steps 5 and 7).
        public var interceptors: [any Interceptor] = []
        /// Observers of every lifecycle event.
        public var observers: [any Observer] = []
        /// JSON settings for `.json` bodies that do not bring their own.
        public var jsonEncoding = JSONEncodingOptions()
        /// JSON settings for decoding values and API error bodies that do not bring their own.
        public var jsonDecoding = JSONDecodingOptions()
        /// The default longest wait for any single network activity: 60 s.
        public var timeout: Duration? = .seconds(60)
        /// The default budget of a whole call (every attempt) from the start of `send`; none.
        public var deadline: Duration?
        /// The default largest response body accepted: 10 MiB.
        public var maxResponseBytes = HTTPRequest.defaultMaxResponseBytes
        /// The most attempts one request makes, however often interceptors ask to retry: 5.
        /// Values below 1 count as 1.
        public var maxAttempts = 5
        /// The request queue (step 2); the pass-through queue by default.
        public var queue: any RequestQueue = ImmediateQueue()
        /// The auth stage (step 3); attaches nothing by default.
        public var auth: any AuthStage = NoAuthentication()
        /// The cache stage (step 9); stores nothing by default.
        public var cache: any CacheStage = NoCache()

        /// The default configuration.
        public init() {}
    }
}
