extension Endpoint {
    /// A copy sent without credentials, for the endpoints that hand them out: sign-in,
    /// sign-up, a password reset.
    ///
    /// The auth stage attaches no token to it and never answers its refusal with a refresh: a
    /// 401 from a sign-in endpoint (a wrong password) ends the call with a `GatewayError` of
    /// kind `.status` that carries the server's answer (`response`, and `apiError` when the
    /// endpoint declares an error body), and the session, if any, stays as it was. The same as
    /// setting `requiresAuthentication` to `false`.
    ///
    /// ```swift
    /// let signIn = Endpoint<OAuthTokenResponse>.post("auth/login", body: ["username": name, "password": password])
    ///     .withoutAuthentication()
    /// ```
    public func withoutAuthentication() -> Endpoint {
        var copy = self
        copy.requiresAuthentication = false
        return copy
    }
}
