extension HTTPHeaders: CustomReflectable {
    /// The fields as `Name: value` lines, with the values of sensitive fields (`Authorization`,
    /// `Cookie`, `Set-Cookie`, …) shown as `<redacted>`, as `description` shows them.
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: RedactionRules.standard.redactedHeaders(self).map { "\($0.name): \($0.value)" },
               displayStyle: .collection)
    }
}
