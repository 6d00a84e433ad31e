extension MemoryTokenStore: CustomReflectable {
    /// The credential as `Credential` shows it: subject and expiry, both tokens `<redacted>`.
    public var customMirror: Mirror {
        Mirror(self, children: ["credential": load().map(\.description) ?? "empty"], displayStyle: .class)
    }
}
