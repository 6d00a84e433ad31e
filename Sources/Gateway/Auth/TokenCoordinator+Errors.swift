extension GatewayError.Kind {
    /// The session was logged out while the request waited for (or used) its credential.
    public static let loggedOut = GatewayError.Kind(rawValue: "logged out")
    /// The server refused to renew the session; the user must sign in again.
    public static let sessionExpired = GatewayError.Kind(rawValue: "session expired")
    /// The credential was renewed too often in a short time and refused each time; refreshing
    /// stopped instead of looping.
    public static let excessiveRefresh = GatewayError.Kind(rawValue: "excessive refresh")
    /// A token refresh failed for a passing reason (the network, a server error); the session
    /// goes on and a later request may refresh again.
    public static let refreshFailed = GatewayError.Kind(rawValue: "refresh failed")
    /// A token store could not read, write or remove the credential, or refused a file others
    /// can read.
    public static let tokenStore = GatewayError.Kind(rawValue: "token store")
}

/// The errors of the token coordinator: what happened and what the app should do.
extension TokenCoordinator {
    static func notSignedInError() -> GatewayError {
        GatewayError(
            .authentication, "the request needs a credential and nobody is signed in (the token store is empty)",
            fix: "sign in and save the credential with TokenCoordinator.save(_:), or send the request with "
                + "requiresAuthentication = false")
    }

    static func loggedOutError() -> GatewayError {
        GatewayError(.loggedOut, "the request was not sent: the user signed out of the session it belongs to",
                     fix: "sign in again before sending requests that need a credential")
    }

    /// The error of a refused refresh; an authenticator's own `.sessionExpired` error is kept as
    /// it is, so that its description says the reason once.
    static func sessionExpiredError(_ error: any Error) -> GatewayError {
        let refusal = error as? GatewayError
        if let refusal, refusal.kind == .sessionExpired { return refusal }
        return GatewayError(
            .sessionExpired, "the server refused to renew the credential", fix: "sign in again",
            request: refusal?.request, response: refusal?.response, underlying: error)
    }

    static func refreshFailedError(_ error: any Error) -> GatewayError {
        let cause = error as? GatewayError
        let reason = if error.isCancellation {
            "it was cancelled"
        } else if let status = cause?.response?.status {
            "HTTP \(status)"
        } else {
            cause.map { ($0.kind.rawValue.first.map { "aeiou".contains($0) } == true ? "an " : "a ")
                + "\($0.kind.rawValue) error" } ?? "an error"
        }
        return GatewayError(
            .refreshFailed, "the credential could not be renewed (\(reason)); the requests waiting for it were not "
                + "sent again",
            fix: "try again later: the next request that needs a credential refreshes again",
            request: cause?.request, response: cause?.response, underlying: error)
    }

    static func excessiveRefreshError(count: Int, options: Options, response: HTTPResponse?) -> GatewayError {
        GatewayError(
            .excessiveRefresh,
            "the credential was refreshed \(count) times within \(seconds(options.refreshLimitInterval)) and "
                + "still refused; not refreshing again until that interval has passed",
            fix: "check what the server refuses: the authenticator's headers(for:) and isUnauthenticated, and the "
                + "tokens the refresh endpoint returns (or raise TokenCoordinator.Options.maxRefreshes)",
            response: response)
    }

    private static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        return fraction == 0 ? "\(whole) s" : "\(duration.seconds) s"
    }

    static func cannotRefreshError(_ response: HTTPResponse) -> GatewayError {
        GatewayError(
            .authentication, "the credential was refused and cannot be refreshed (no refresh token, or no "
                + "authenticator that can refresh)",
            fix: "sign in again, or set Configuration.authenticator", response: response)
    }
}
