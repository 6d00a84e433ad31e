import Foundation

/// What an endpoint path may do beyond naming a place under the base URL.
public struct PathOptions: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int
    /// Creates options from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `.` and `..` segments are resolved (and may climb out of the base path) instead of refused.
    public static let allowDotSegments = PathOptions(rawValue: 1 << 0)
    /// An absolute `http`/`https` URL is used as it is instead of refused.
    public static let allowAbsoluteURL = PathOptions(rawValue: 1 << 1)
}

/// Joins a base URL and an endpoint path safely.
///
/// Rules, in order:
/// 1. The base URL must be an absolute `http` or `https` URL with a host.
/// 2. A path that is an absolute URL (`scheme://…`) is refused unless `.allowAbsoluteURL`.
/// 3. `?` and `#` are refused: query items go in `Endpoint.query`, and a fragment is never sent.
/// 4. The path is always relative to the base path, a leading `/` included; empty segments
///    (`a//b`, leading and trailing slashes) are dropped, except that one trailing `/` is kept.
/// 5. Each segment is percent-encoded: RFC 3986 `pchar` characters are kept, a valid `%XX` is
///    kept as already encoded, everything else (spaces, `\`, a lone `%`, non-ASCII) is encoded.
/// 6. A segment that is `.` or `..` — also when written as `%2E%2E`, hidden behind an encoded
///    `%2F` or a `\`, or followed by `;parameters` — is refused unless `.allowDotSegments`, which resolves plain `.` and `..`
///    (never climbing above the root) and still refuses the hidden forms.
enum PathJoining {
    static func join(base: URL, path: String, options: PathOptions = []) throws -> URL {
        let key = Joined(base: base.absoluteString, path: path, options: options.rawValue)
        if let url = joined.withLock({ $0[key] }) { return url }
        let url = try joinAnew(base: base, path: path, options: options)
        joined.withLock { memo in
            if memo.count >= 512 { memo.removeAll(keepingCapacity: true) }
            memo[key] = url
        }
        return url
    }

    /// A join already made: the same base URL, path and options always give the same URL.
    private struct Joined: Hashable {
        var base: String
        var path: String
        var options: Int
    }

    /// The URLs joined lately (an app sends the same few paths again and again); bounded.
    private static let joined = Locked<[Joined: URL]>([:])

    private static func joinAnew(base: URL, path: String, options: PathOptions) throws -> URL {
        guard base.isHTTPWithHost else { throw notHTTP(base) }
        if let absolute = try absoluteURL(path, options: options) { return absolute }
        if let bad = path.utf8.first(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            let character = Character(Unicode.Scalar(bad))
            throw GatewayError(.invalidRequest, "the path \"\(path)\" contains '\(character)'",
                               fix: character == "?" ? "put query items in the endpoint's query instead of the path"
                                   : "remove the fragment; it is never sent to a server")
        }
        // Usually the base URL's text ends with its path: the joined path then replaces it in
        // the text, which is parsed once. Otherwise (a query on the base URL, say) URLComponents
        // puts it together.
        let basePath = base.path(percentEncoded: true)
        let text = base.absoluteString
        if base.query == nil, base.fragment == nil, text.utf8.count > basePath.utf8.count, text.hasSuffix(basePath) {
            let joined = try joinedPath(basePath, path, options: options)
            let prefix = text.utf8.prefix(text.utf8.count - basePath.utf8.count)
            if let url = URL(string: String(decoding: prefix, as: UTF8.self) + joined) { return url }
        }
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true) else { throw notHTTP(base) }
        components.percentEncodedPath = try joinedPath(components.percentEncodedPath, path, options: options)
        components.fragment = nil
        guard let url = components.url else {
            throw GatewayError(.invalidRequest, "the path \"\(path)\" does not make a valid URL with the base URL",
                               fix: "check the base URL and the path")
        }
        return url
    }

    private static func notHTTP(_ base: URL) -> GatewayError {
        GatewayError(
            .invalidRequest, "the base URL \(Redaction.redactedURL(base)) is not an absolute http or https URL",
            fix: "create the provider with a URL such as https://api.example.com/v1")
    }

    /// The base URL's percent-encoded path with `path` joined to it by the rules above.
    private static func joinedPath(_ basePath: String, _ path: String, options: PathOptions) throws -> String {
        var segments = basePath.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let keepsTrailingSlash = path.hasSuffix("/") || (path.isEmpty && basePath.hasSuffix("/"))
        for raw in path.split(separator: "/", omittingEmptySubsequences: true) {
            let segment = PercentEncoding.escapePathSegment(raw)
            let decoded = PercentEncoding.decode(segment)
            if decoded == "." || decoded == ".." {
                guard options.contains(.allowDotSegments) else { throw dotSegment(path) }
                if decoded == "..", !segments.isEmpty { segments.removeLast() }
                continue
            }
            // Servers that decode `%2F`, treat `\` as `/` or drop `;parameters` would see a dot segment.
            let hidden = decoded.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }
                .map { $0.prefix { $0 != ";" } }
            if hidden.contains(where: { $0 == "." || $0 == ".." }) { throw dotSegment(path) }
            segments.append(segment)
        }
        let joined = "/" + segments.joined(separator: "/")
        return joined + (keepsTrailingSlash && !segments.isEmpty ? "/" : "")
    }

    /// The path as an absolute URL when it is one and that is allowed; `nil` when it is relative.
    private static func absoluteURL(_ path: String, options: PathOptions) throws -> URL? {
        guard let colon = path.firstIndex(of: ":"), path[colon...].hasPrefix("://"),
              let first = path.first, first.isLetter,
              path[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        else { return nil }
        guard options.contains(.allowAbsoluteURL) else {
            throw GatewayError(
                .invalidRequest,
                "the path \"\(path.prefix(200))\" is an absolute URL, which would leave the provider's base URL",
                fix: "pass a path relative to the base URL, or allow absolute URLs for this endpoint with "
                    + "pathOptions: .allowAbsoluteURL")
        }
        guard let url = URL(string: path), url.isHTTPWithHost else {
            throw GatewayError(
                .invalidRequest, "the absolute URL \"\(path.prefix(200))\" is not a valid http or https URL",
                fix: "pass a complete URL such as https://example.com/file")
        }
        return url
    }

    private static func dotSegment(_ path: String) -> GatewayError {
        GatewayError(.invalidRequest, "the path \"\(path.prefix(200))\" contains a '.' or '..' segment, which could "
                     + "leave the base path", fix: "remove the dot segments, or allow them for this endpoint with "
                     + "pathOptions: .allowDotSegments")
    }
}
