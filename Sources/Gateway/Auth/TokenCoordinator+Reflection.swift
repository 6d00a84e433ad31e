extension TokenCoordinator: CustomReflectable {
    /// The store and authenticator by name, the options, and the credential as `Credential`
    /// shows it (subject and expiry; both tokens `<redacted>`). The session's header fields and
    /// the refresh in flight are not shown.
    public nonisolated var customMirror: Mirror {
        let credential = snapshot.value.credential
        return Mirror(self, children: [
            "store": Redaction.reflectedName(store),
            "authenticator": String(describing: type(of: authenticator)),
            "proactiveRefreshWindow": options.proactiveRefreshWindow,
            "maxRefreshes": options.maxRefreshes,
            "refreshLimitInterval": options.refreshLimitInterval,
            "credential": credential.map(\.description) ?? "none loaded",
        ], displayStyle: .class)
    }
}
