import GraphQLLanguage

extension GraphQLRequest: CustomReflectable {
    /// The operation, the variables with the values of sensitive fields (`password`, `token`,
    /// …) `<redacted>`, the uploads by file name and the headers as `HTTPHeaders` shows them.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "operation": name,
            "variables": RedactionRules.standard.redact(.object(variables)).serialized(),
            "uploads": uploads.map(\.path),
            "headers": options.headers,
            "settingsPath": settings.path,
        ], displayStyle: .struct)
    }
}
