/// Where a Redis server is and how to log in: `redis://[user:password@]host:port/db`.
///
/// The port defaults to 6379 and the database to 0; `redis://:secret@host` sends `AUTH secret`,
/// `redis://user:secret@host` sends `AUTH user secret` (Redis 6 ACL users). User and password
/// may be percent-encoded. An IPv6 address goes in brackets: `redis://[::1]:6379`. TLS
/// (`rediss://`) is not supported.
///
/// ```swift
/// let url = try RedisURL("redis://cache:s3cret@10.0.0.5:6380/2")
/// print(url)   // redis://cache:***@10.0.0.5:6380/2
/// ```
public struct RedisURL: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address (without brackets).
    public var host: String
    /// The TCP port.
    public var port: Int
    /// The ACL user, or `nil` for the default user.
    public var user: String?
    /// The password, or `nil` to send no `AUTH`.
    public var password: String?
    /// The database number `SELECT`ed after connecting.
    public var database: Int

    /// Creates a URL from its parts.
    public init(host: String, port: Int = 6379, user: String? = nil, password: String? = nil, database: Int = 0) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
    }

    /// Parses `redis://[user:password@]host[:port][/db]`.
    ///
    /// - Throws: `RedisURLError` naming what is wrong and how to write it instead.
    public init(_ text: String) throws(RedisURLError) {
        let scheme = "redis://"
        guard text.lowercased().hasPrefix(scheme) else {
            if text.lowercased().hasPrefix("rediss://") {
                throw RedisURLError(text, "TLS (rediss://) is not supported; use redis:// on a trusted network")
            }
            throw RedisURLError(text, "it does not start with redis://")
        }
        var rest = Substring(text.dropFirst(scheme.count))
        if rest.contains("?") || rest.contains("#") {
            throw RedisURLError(text, "query parameters and fragments are not supported")
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !path.isEmpty {
                guard let number = Int(path), number >= 0, number <= 1_000_000 else {
                    throw RedisURLError(text, "the database \"\(path)\" is not a number (write /0, /1, ...)")
                }
                database = number
            }
        }
        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                let name = credentials[..<colon]
                user = name.isEmpty ? nil : try Self.decoded(name, in: text)
                password = try Self.decoded(credentials[credentials.index(after: colon)...], in: text)
            } else if !credentials.isEmpty {
                // `redis://secret@host`: one part is the password, as redis-cli reads it.
                password = try Self.decoded(credentials, in: text)
            }
        }
        var host = rest
        var port = 6379
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else {
                throw RedisURLError(text, "an IPv6 address is missing its closing ]")
            }
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw RedisURLError(text, "unexpected \"\(after)\" after the address") }
                port = try Self.port(after.dropFirst(), in: text)
            }
        } else if let colon = host.lastIndex(of: ":") {
            port = try Self.port(host[host.index(after: colon)...], in: text)
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw RedisURLError(text, "the host is missing (redis://host:6379)") }
        self.init(host: String(host), port: port, user: user, password: password, database: database)
    }

    private static func port(_ text: Substring, in url: String) throws(RedisURLError) -> Int {
        guard let port = Int(text), (1...65535).contains(port) else {
            throw RedisURLError(url, "the port \"\(text)\" is not a number from 1 to 65535")
        }
        return port
    }

    private static func decoded(_ text: Substring, in url: String) throws(RedisURLError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard iterator.count >= 2, let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            else { throw RedisURLError(url, "a % in the user or password is not followed by two hex digits") }
            bytes.append(value)
            iterator = iterator.dropFirst(2)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The URL with the password hidden, for messages and logs.
    public var description: String {
        var text = "redis://"
        if user != nil || password != nil {
            text += (user ?? "") + (password == nil ? "" : ":***") + "@"
        }
        text += host.contains(":") ? "[\(host)]" : host
        return text + ":\(port)/\(database)"
    }
}

/// A `redis://` URL that cannot be read.
public struct RedisURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and how to write it instead.
    public let reason: String
    /// The URL as given, with anything after `//` and before `@` hidden.
    public let url: String

    init(_ url: String, _ reason: String) {
        self.reason = reason
        if let slashes = url.range(of: "//"), let at = url[slashes.upperBound...].lastIndex(of: "@") {
            self.url = String(url[..<slashes.upperBound]) + "***" + String(url[at...])
        } else {
            self.url = url
        }
    }

    /// `not a Redis URL: <url>: <reason>`, with the expected form.
    public var description: String {
        "not a Redis URL: \(url): \(reason); expected redis://[user:password@]host[:port][/db]"
    }
}
