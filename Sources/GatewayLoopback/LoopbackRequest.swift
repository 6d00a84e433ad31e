import Foundation

/// One request as the loopback server received it.
public struct LoopbackRequest: Sendable, CustomStringConvertible {
    /// One item of the query string, percent-decoded.
    public struct QueryItem: Sendable, Hashable {
        /// The decoded name.
        public var name: String
        /// The decoded value; `nil` when the item had no `=`.
        public var value: String?

        /// Creates a query item.
        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// The method token as sent (`GET`, `POST`, ...).
    public var method: String
    /// The request target exactly as sent: the raw path and query (`/a%20b?x=1`).
    public var target: String
    /// The path part of the target, still percent-encoded as sent (`/a%20b`).
    public var path: String
    /// The raw query string after `?`, or `nil` when the target has none.
    public var rawQuery: String?
    /// The query items in order, percent-decoded (`+` is decoded as a space, as HTML forms write it).
    public var query: [QueryItem]
    /// The HTTP version as sent (`HTTP/1.1`).
    public var version: String
    /// The header fields in order.
    public var headers: LoopbackHeaders
    /// The body after any chunked transfer coding was removed.
    public var body: Data
    /// Which connection the request came on; connections are numbered from 1 in accept order.
    public var connectionID: Int

    /// Creates a request; the server builds these, tests may build them to call handlers directly.
    public init(
        method: String,
        target: String,
        version: String = "HTTP/1.1",
        headers: LoopbackHeaders = [:],
        body: Data = Data(),
        connectionID: Int = 0
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.connectionID = connectionID
        if let mark = target.firstIndex(of: "?") {
            path = String(target[..<mark])
            let raw = String(target[target.index(after: mark)...])
            rawQuery = raw
            query = LoopbackRequest.parseQuery(raw)
        } else {
            path = target
            rawQuery = nil
            query = []
        }
    }

    /// The path with percent-escapes decoded (the raw path when it is not valid percent-encoding).
    public var decodedPath: String { path.removingPercentEncoding ?? path }

    /// The first value of the named query item (`nil` when absent or valueless).
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Every value of the named query item, in order.
    public func queryValues(_ name: String) -> [String] {
        query.filter { $0.name == name }.compactMap(\.value)
    }

    /// The body decoded as UTF-8 (invalid bytes become U+FFFD).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// `METHOD target (N bytes)`.
    public var description: String { "\(method) \(target) (\(body.count) bytes)" }

    /// Splits `a=1&b&c=%20` into decoded items, in order; empty pieces are skipped.
    static func parseQuery(_ raw: String) -> [QueryItem] {
        raw.split(separator: "&", omittingEmptySubsequences: true).map { piece in
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            if let equals = piece.firstIndex(of: "=") {
                return QueryItem(name: decode(piece[..<equals]), value: decode(piece[piece.index(after: equals)...]))
            }
            return QueryItem(name: decode(piece), value: nil)
        }
    }
}
