import Foundation

extension Endpoint: CustomReflectable {
    /// The method, the path, query items with the values of sensitive names (`api_key`,
    /// `access_token`, …) `<redacted>`, headers as `HTTPHeaders` shows them, and the
    /// parameters by their encoders only: the same rules as `HTTPRequest`'s.
    public var customMirror: Mirror {
        let rules = RedactionRules.standard
        return Mirror(self, children: [
            "name": name,
            "query": query.map { item -> String in
                guard let value = item.value else { return item.name }
                return item.name + "=" + (rules.isSensitiveQueryItem(item.name) ? Redaction.placeholder : value)
            },
            "headers": headers,
            "parameters": parameters.map { String(describing: type(of: $0.encoder)) },
            "acceptableStatusCodes": acceptableStatusCodes.description,
            "requiresAuthentication": requiresAuthentication,
        ], displayStyle: .struct)
    }
}
