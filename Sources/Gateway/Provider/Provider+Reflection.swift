extension Provider: CustomReflectable {
    /// The base URL (user info and sensitive query items redacted), the transport's type and
    /// the configuration as its own `customMirror` shows it: no token, key or cookie.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "baseURL": RedactionRules.standard.redactedURL(baseURL),
            "transport": String(describing: type(of: transport)),
            "configuration": configuration,
            "isInvalidated": isInvalidated,
        ], displayStyle: .class)
    }
}

extension Provider.Configuration: CustomReflectable {
    /// The settings a reader needs, with secrets left out: default headers redacted as
    /// `HTTPHeaders` shows them, and stages, interceptors, observers and stores by type (or by
    /// a description that redacts, for the token store and the auth stage).
    public var customMirror: Mirror {
        Mirror(self, children: [
            "headers": headers,
            "auth": Redaction.reflectedName(auth),
            "tokens": tokens.map(Redaction.reflectedName) as Any,
            "authenticator": String(describing: type(of: authenticator)),
            "tokenCoordinator": tokenCoordinator as Any,
            "credentialOrigins": credentialOrigins.map(RedactionRules.standard.redactedURL),
            "interceptors": interceptors.map { String(describing: type(of: $0)) },
            "observers": observers.map { String(describing: type(of: $0)) },
            "cache": String(describing: type(of: cache)),
            "queue": String(describing: type(of: queue)),
            "timeout": timeout as Any,
            "deadline": deadline as Any,
            "maxResponseBytes": maxResponseBytes,
            "maxAttempts": maxAttempts,
            "graphQLPath": graphQL.path,
        ], displayStyle: .struct)
    }
}
