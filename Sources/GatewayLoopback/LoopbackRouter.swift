/// Routes loopback requests by method and path to handlers.
///
/// Paths match the request's raw `path` exactly, or by prefix when the pattern ends in `*`.
/// Routes are tried in the order they were added. A path that matches with another method gets
/// a 405 with `Allow`; no match at all goes to the fallback (a 404 naming the request by default).
///
/// ```swift
/// var router = LoopbackRouter()
/// router.get("/users/1") { _ in .json(#"{"id":1}"#) }
/// router.post("/upload") { request in .text("\(request.body.count)") }
/// let server = try LoopbackServer(router: router)
/// ```
public struct LoopbackRouter: Sendable {
    private struct Route: Sendable {
        var method: String?
        var pattern: String
        var handler: LoopbackHandler

        func matches(path: String) -> Bool {
            if pattern.hasSuffix("*") { return path.hasPrefix(pattern.dropLast()) }
            return path == pattern
        }
    }

    private var routes: [Route] = []
    private var fallback: LoopbackHandler?

    /// Creates an empty router.
    ///
    /// - Parameter fallback: answers requests no route matches; `nil` answers 404.
    public init(fallback: LoopbackHandler? = nil) {
        self.fallback = fallback
    }

    /// Adds a route.
    ///
    /// - Parameters:
    ///   - method: the method to match (any case), or `nil` for every method.
    ///   - path: the exact path, or a prefix ending in `*`.
    ///   - handler: answers matching requests.
    public mutating func route(_ method: String?, _ path: String, _ handler: @escaping LoopbackHandler) {
        routes.append(Route(method: method?.uppercased(), pattern: path, handler: handler))
    }

    /// Adds a `GET` route.
    public mutating func get(_ path: String, _ handler: @escaping LoopbackHandler) { route("GET", path, handler) }

    /// Adds a `POST` route.
    public mutating func post(_ path: String, _ handler: @escaping LoopbackHandler) { route("POST", path, handler) }

    /// Adds a `PUT` route.
    public mutating func put(_ path: String, _ handler: @escaping LoopbackHandler) { route("PUT", path, handler) }

    /// Adds a `DELETE` route.
    public mutating func delete(_ path: String, _ handler: @escaping LoopbackHandler) { route("DELETE", path, handler) }

    /// Answers a request with the first matching route.
    ///
    /// - Returns: the route's response, a 405 when only the method differs, or the fallback's answer.
    public func handle(_ request: LoopbackRequest) async throws -> LoopbackResponse {
        let onPath = routes.filter { $0.matches(path: request.path) }
        if let route = onPath.first(where: { $0.method == nil || $0.method == request.method }) {
            return try await route.handler(request)
        }
        if !onPath.isEmpty {
            let allowed = Set(onPath.compactMap(\.method)).sorted().joined(separator: ", ")
            return .text("\(request.method) is not allowed on \(request.path)\n", status: 405, headers: ["Allow": allowed])
        }
        if let fallback { return try await fallback(request) }
        return .text("no route for \(request.method) \(request.path)\n", status: 404)
    }
}
