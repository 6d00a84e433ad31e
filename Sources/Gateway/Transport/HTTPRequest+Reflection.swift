extension HTTPRequest: CustomReflectable {
    /// The method, the URL and headers with secrets redacted, and the body as `redactedBody`
    /// shows it (JSON or form fields with sensitive names redacted; other bodies only counted).
    public var customMirror: Mirror {
        let rules = RedactionRules.standard
        let shownBody: String
        switch body {
        case nil: shownBody = "none"
        case .data(let data)?:
            shownBody = rules.redactedBody(data, contentType: headers["Content-Type"]) ?? "\(data.count) bytes"
        case .file(_, let length, _)?: shownBody = "a file of \(length) bytes"
        }
        return Mirror(self, children: [
            "method": method.rawValue,
            "url": rules.redactedURL(url),
            "headers": headers,
            "body": shownBody,
            "timeout": timeout as Any,
            "maxResponseBytes": maxResponseBytes,
        ], displayStyle: .struct)
    }
}
