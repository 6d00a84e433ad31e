import Foundation

/// What went into a cache key, kept so that a key can explain itself and two keys can be compared.
///
/// GraphQL keys use `operation`, `operationName`, `variables`, `endpoint` and `partition`; REST
/// keys use `method`, `endpoint` (the normalized URL), `vary` and `partition`; fields the kind
/// does not use are ignored by the digest and by `explained`. Build them with `CacheKey.graphQL`,
/// `CacheKey.Operation` or `CacheKey.rest`.
public struct CacheKeyComponents: Sendable, Hashable {
    /// Which kind of request the key is for.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A GraphQL operation.
        case graphql
        /// A REST request.
        case rest
    }

    /// One request header named by `Vary`, with the request's value (`nil` when it had none).
    public struct VaryField: Sendable, Hashable {
        /// The header name, lower-cased.
        public var name: String
        /// The request's value (several fields of the name joined with `, `), or `nil` when absent.
        public var value: String?

        /// Creates a field.
        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// GraphQL or REST.
    public var kind: Kind
    /// GraphQL: the normalized operation text.
    public var operation: String?
    /// GraphQL: the operation name (`nil` for an anonymous operation).
    public var operationName: String?
    /// GraphQL: the canonical JSON text of the variables (`{}` when there are none).
    public var variables: String?
    /// REST: the method, upper-case.
    public var method: String?
    /// GraphQL: the endpoint URL. REST: the request URL with sorted query items.
    public var endpoint: String
    /// REST: the headers named by `Vary`, sorted by name.
    public var vary: [VaryField]
    /// Whose data it is.
    public var partition: CachePartition

    /// The components of a GraphQL operation.
    public static func graphQL(operation: String, operationName: String?, canonicalVariables: String,
                               endpoint: String, partition: CachePartition) -> CacheKeyComponents {
        CacheKeyComponents(kind: .graphql, operation: operation, operationName: operationName,
                           variables: canonicalVariables, method: nil, endpoint: endpoint, vary: [],
                           partition: partition)
    }

    /// The components of a REST request; `url` must already be normalized (see `normalizedURL`).
    public static func rest(method: String, url: String, vary: [VaryField], partition: CachePartition)
        -> CacheKeyComponents
    {
        CacheKeyComponents(kind: .rest, operation: nil, operationName: nil, variables: nil, method: method,
                           endpoint: url, vary: vary, partition: partition)
    }

    /// What an entry of this key is called: the operation name (or `(anonymous)`) or the URL.
    public var name: String {
        switch kind {
        case .graphql: operationName ?? "(anonymous)"
        case .rest: endpoint
        }
    }

    /// The name statistics are counted under: the operation name, or the method and the URL
    /// without its query (so that REST statistics do not grow by one row per query string).
    public var statisticsName: String {
        switch kind {
        case .graphql: return operationName ?? "(anonymous)"
        case .rest:
            let path = endpoint.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first
            return "\(method ?? "GET") \(path.map(String.init) ?? endpoint)"
        }
    }

    /// Hashes every component in order (see `CacheKeyHasher` for the layout).
    func computeDigest() -> CacheKey.Digest {
        var hasher = CacheKeyHasher()
        hasher.add(kind.rawValue)
        switch kind {
        case .graphql:
            hasher.add(operation)
            hasher.add(operationName)
            hasher.add(variables)
            hasher.add(endpoint)
        case .rest:
            hasher.add(method)
            hasher.add(endpoint)
            hasher.addCount(UInt64(vary.count))
            for field in vary {
                hasher.add(field.name)
                hasher.add(field.value)
            }
        }
        hasher.add(partition.subject)
        return hasher.finish()
    }

    /// The components with their names, in hashing order.
    public var explained: [CacheKeyComponent] {
        var list = [CacheKeyComponent(name: "kind", value: kind.rawValue)]
        switch kind {
        case .graphql:
            list.append(CacheKeyComponent(name: "operation", value: operation))
            list.append(CacheKeyComponent(name: "operationName", value: operationName))
            list.append(CacheKeyComponent(name: "variables", value: variables))
            list.append(CacheKeyComponent(name: "endpoint", value: endpoint))
        case .rest:
            list.append(CacheKeyComponent(name: "method", value: method))
            list.append(CacheKeyComponent(name: "url", value: endpoint))
            for field in vary { list.append(CacheKeyComponent(name: "vary:\(field.name)", value: field.value)) }
        }
        list.append(CacheKeyComponent(name: "partition", value: partition.subject))
        return list
    }

    /// The names of the components that differ between `self` and `other`, in hashing order
    /// (a component present on one side only counts as different).
    public func differences(from other: CacheKeyComponents) -> [String] {
        let mine = explained
        let theirs = other.explained
        var names: [String] = []
        for component in mine where !theirs.contains(component) { names.append(component.name) }
        for component in theirs where !mine.contains(where: { $0.name == component.name }) {
            names.append(component.name)
        }
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// The components of a REST request to a URL already in normal form (`normalizedURL`): the
    /// values of the `vary` names (trimmed, lower-cased, each once, sorted) taken from
    /// `requestHeaders`.
    static func rest(method: HTTPMethod, normalizedURL: String, partition: CachePartition, vary: [String],
                     requestHeaders: HTTPHeaders) -> CacheKeyComponents {
        var fields: [VaryField] = []
        if !vary.isEmpty {
            var names = Set<String>()
            for name in vary {
                let lowered = name.trimmingCharacters(in: .whitespaces).lowercased()
                guard !lowered.isEmpty, names.insert(lowered).inserted else { continue }
                let values = requestHeaders.values(for: lowered)
                fields.append(VaryField(name: lowered, value: values.isEmpty ? nil : values.joined(separator: ", ")))
            }
            fields.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        }
        return .rest(method: method.rawValue, url: normalizedURL, vary: fields, partition: partition)
    }

    /// A URL as REST keys use it: scheme and host lower-cased, fragment dropped, query items
    /// sorted by name (byte order; values of one name keep their order), an empty query removed.
    public static func normalizedURL(_ url: URL) -> String {
        let text = url.absoluteString
        if isNormalized(text) { return text }
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return text }
        parts.fragment = nil
        parts.scheme = parts.scheme?.lowercased()
        if let host = parts.percentEncodedHost { parts.percentEncodedHost = host.lowercased() }
        if let query = parts.percentEncodedQuery {
            let items = query.split(separator: "&", omittingEmptySubsequences: true)
            let sorted = items.enumerated().sorted { left, right in
                let leftName = left.element.prefix { $0 != "=" }
                let rightName = right.element.prefix { $0 != "=" }
                if leftName == rightName { return left.offset < right.offset }
                return leftName.utf8.lexicographicallyPrecedes(rightName.utf8)
            }
            parts.percentEncodedQuery = sorted.isEmpty ? nil : sorted.map { String($0.element) }.joined(separator: "&")
        }
        return parts.string ?? text
    }

    /// Whether an absolute URL's text is already in the normalized form (the usual case, checked
    /// by bytes for every request): no fragment, nothing upper-case before the path, and query
    /// items (if any) already in order by name.
    private static func isNormalized(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard let index = SchemeSeparator.authority(in: bytes)?.upperBound else { return false }
            // Scheme and authority: lower-case only; no fragment anywhere.
            for byte in bytes[..<index] where isUpper(byte) { return false }
            guard !bytes[index...].contains(UInt8(ascii: "#")) else { return false }
            guard let question = bytes[index...].firstIndex(of: UInt8(ascii: "?")) else { return true }
            let items = bytes[(question + 1)...].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false)
            guard !items.contains(where: \.isEmpty) else { return false }
            let names = items.map { $0.prefix { $0 != UInt8(ascii: "=") } }
            return zip(names, names.dropFirst()).allSatisfy { !$1.lexicographicallyPrecedes($0) }
        }
    }

    private static func isUpper(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
}

/// One named component of a cache key, for `explain` and `diff`.
public struct CacheKeyComponent: Sendable, Hashable, CustomStringConvertible {
    /// The component's name: `operation`, `variables`, `endpoint`, `partition`, `vary:accept`, ...
    public var name: String
    /// Its value; `nil` when absent (an anonymous partition, an unnamed operation, a missing header).
    public var value: String?

    /// Creates a component.
    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }

    /// `name: value`, or `name: (absent)`.
    public var description: String { "\(name): \(value ?? "(absent)")" }
}
