import Foundation
import GraphQLLanguage

/// The identity of a cached response: a SHA-256 digest over the components of the request.
///
/// For a GraphQL query the components are the normalized operation text, the operation name,
/// the canonical variables, the endpoint URL and the partition; for a REST request, the method,
/// the URL with its query items sorted, the values of the request headers named by `Vary`, and
/// the partition. Each component is length-prefixed before hashing (see `explain()`), so values
/// holding separators or NUL never collide. The key keeps its components so that it can explain
/// itself and so that stores can save them next to the entry.
///
/// ```swift
/// let getTrack = CacheKey.Operation(text: normalizedText, name: "GetTrack")   // once per operation
/// let key = getTrack.key(variables: ["id": 42], endpoint: "https://api.example.com/graphql",
///                        partition: .subject("user-1"))
/// print(key.hex)   // 64 hex digits
/// ```
///
/// Two keys are equal when their digests are equal.
///
/// A value: its digest is held inline, and its components, which never change, in one shared
/// immutable reference, so that copying a key (into a plan, a look-up, an entry) retains one
/// object instead of each of the components' strings.
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The SHA-256 digest that identifies the entry.
    public let digest: Digest
    /// What went into the digest.
    public var components: CacheKeyComponents { held.components }
    private let held: Held

    /// Creates the key of `components`, hashing all of them.
    public init(components: CacheKeyComponents) {
        self.init(digest: components.computeDigest(), components: components)
    }

    /// A key whose digest is already known (the digest must be that of `components`).
    package init(digest: Digest, components: CacheKeyComponents) {
        self.digest = digest
        held = Held(components)
    }

    /// The components, shared by the copies of a key.
    private final class Held: Sendable {
        let components: CacheKeyComponents
        init(_ components: CacheKeyComponents) { self.components = components }
    }

    /// The key of a GraphQL operation.
    ///
    /// - Parameters:
    ///   - operation: the normalized operation text (the GraphQL layer's compact canonical form).
    ///   - operationName: the operation's name, or `nil` for an anonymous operation.
    ///   - variables: the variables with declared defaults applied; `nil` means none, like `{}`.
    ///     A member whose value is `null` is different from an absent member.
    ///   - endpoint: the GraphQL endpoint URL.
    ///   - partition: whose data this is.
    public static func graphQL(operation: String, operationName: String?, variables: JSONValue?,
                               endpoint: String, partition: CachePartition) -> CacheKey {
        Operation(text: operation, name: operationName)
            .key(variables: variables, endpoint: endpoint, partition: partition)
    }

    /// The key of a REST request.
    ///
    /// - Parameters:
    ///   - method: the request method (normally `GET`).
    ///   - url: the request URL; its query items are sorted by name (keeping the order of values
    ///     of one name), the fragment dropped, and scheme and host lower-cased.
    ///   - partition: whose data this is.
    ///   - vary: the header names listed by the response's `Vary` field.
    ///   - requestHeaders: the request's headers; the values of the `vary` names are taken from here.
    public static func rest(method: HTTPMethod = .get, url: URL, partition: CachePartition,
                            vary: [String] = [], requestHeaders: HTTPHeaders = [:]) -> CacheKey {
        rest(method: method, normalizedURL: CacheKeyComponents.normalizedURL(url), partition: partition, vary: vary,
             requestHeaders: requestHeaders)
    }

    /// `rest(method:url:partition:vary:requestHeaders:)` for a URL already in normal form
    /// (`CacheKeyComponents.normalizedURL`).
    static func rest(method: HTTPMethod = .get, normalizedURL: String, partition: CachePartition,
                     vary: [String], requestHeaders: HTTPHeaders) -> CacheKey {
        CacheKey(components: .rest(method: method, normalizedURL: normalizedURL, partition: partition, vary: vary,
                                   requestHeaders: requestHeaders))
    }

    /// The digest as 64 lower-case hex digits: the key's text everywhere it is shown or stored.
    public var hex: String { digest.hex }

    /// Every component that went into the key, in hashing order, with its name.
    public func explain() -> [CacheKeyComponent] { components.explained }

    /// The hex digest.
    public var description: String { hex }

    /// Keys are equal when their digests are.
    public static func == (lhs: CacheKey, rhs: CacheKey) -> Bool { lhs.digest == rhs.digest }

    /// Hashes the digest.
    public func hash(into hasher: inout Hasher) { hasher.combine(digest) }
}

extension CacheKey {
    /// A 256-bit SHA-256 digest, held as four words so that look-ups compare fast.
    public struct Digest: Sendable, Hashable, Comparable, CustomStringConvertible {
        let w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

        /// The digest of four big-endian words.
        init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
            (self.w0, self.w1, self.w2, self.w3) = (w0, w1, w2, w3)
        }

        /// Reads 32 digest bytes (missing bytes count as zero).
        init(bytes: [UInt8]) {
            func word(_ start: Int) -> UInt64 {
                var value: UInt64 = 0
                for index in start..<(start + 8) {
                    value = value << 8 | UInt64(index < bytes.count ? bytes[index] : 0)
                }
                return value
            }
            (w0, w1, w2, w3) = (word(0), word(8), word(16), word(24))
        }

        /// Parses 64 hex digits (either case); `nil` for anything else.
        public init?(hex: String) {
            let digits = Array(hex.utf8)
            guard digits.count == 64 else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(32)
            var index = 0
            while index < 64 {
                guard let high = Digest.nibble(digits[index]), let low = Digest.nibble(digits[index + 1]) else {
                    return nil
                }
                bytes.append(high << 4 | low)
                index += 2
            }
            self.init(bytes: bytes)
        }

        private static func nibble(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
            default: nil
            }
        }

        /// The 32 digest bytes.
        public var bytes: [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(32)
            for word in [w0, w1, w2, w3] {
                for shift in stride(from: 56, through: 0, by: -8) {
                    out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
                }
            }
            return out
        }

        /// 64 lower-case hex digits.
        public var hex: String { SHA256.hex(bytes) }

        /// Writes the 64 hex digits into `buffer` (which must hold 64 bytes), without allocating.
        package func writeHex(into buffer: UnsafeMutableRawBufferPointer) {
            let digits: StaticString = "0123456789abcdef"
            digits.withUTF8Buffer { table in
                var position = 0
                for index in 0..<4 {
                    let word = index == 0 ? w0 : index == 1 ? w1 : index == 2 ? w2 : w3
                    for shift in stride(from: 60, through: 0, by: -4) {
                        buffer[position] = table[Int((word >> UInt64(shift)) & 0xf)]
                        position += 1
                    }
                }
            }
        }

        /// The first word alone: it is already uniformly spread, and look-ups hash it on every hit.
        public func hash(into hasher: inout Hasher) { hasher.combine(w0) }

        /// Orders digests as their hex texts sort.
        public static func < (lhs: Digest, rhs: Digest) -> Bool {
            (lhs.w0, lhs.w1, lhs.w2, lhs.w3) < (rhs.w0, rhs.w1, rhs.w2, rhs.w3)
        }

        /// The hex digits.
        public var description: String { hex }
    }
}
