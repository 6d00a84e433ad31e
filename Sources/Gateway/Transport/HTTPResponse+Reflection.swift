extension HTTPResponse: CustomReflectable {
    /// The status, the URL and headers with secrets redacted, and the body as `redactedBody`
    /// shows it (JSON or form fields with sensitive names redacted; other bodies only counted).
    public var customMirror: Mirror {
        let rules = RedactionRules.standard
        return Mirror(self, children: [
            "status": status,
            "headers": headers,
            "body": rules.redactedBody(body, contentType: headers["Content-Type"]) ?? "\(body.count) bytes",
            "url": url.map(rules.redactedURL) as Any,
            "transportMetrics": transportMetrics,
        ], displayStyle: .struct)
    }
}
