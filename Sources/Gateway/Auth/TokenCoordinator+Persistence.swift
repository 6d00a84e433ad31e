import Foundation

/// What the store holds while a refresh runs.
///
/// Many servers accept a refresh token once: the refresh that sends it spends it, whether or not
/// its answer comes back. So the store never holds a refresh token the server may have spent,
/// and an app killed at any moment finds, when it starts again, either a credential whose
/// refresh token the server still accepts, or none (and the user signs in again):
///
/// 1. Before the refresh request can reach the server, the store is emptied. If it cannot be
///    emptied, the refresh does not start and the request fails with the store's error (a
///    proactive renewal goes on with the credential that has not yet expired).
/// 2. A new credential is saved before any waiting request is handed it, and a refused refresh
///    clears the store before any waiting request fails.
/// 3. After a passing failure the old credential is put back only when the failure shows its
///    refresh token was not spent: the refresh endpoint answered with an error status (so it
///    issued nothing), or the request never left (no connection, unknown host, offline). After
///    a timeout, a lost connection or a cancellation the server may have spent it, so the store
///    stays empty; the coordinator still tries the old credential once more while the app runs.
///
/// When saving the new credential fails, the session goes on with it in memory: the waiting
/// requests get it, observers hear `tokenStoreFailed`, and the store stays empty (a server that
/// spent the old refresh token would refuse it anyway), so the user signs in again after the app
/// restarts. The next successful refresh saves again.
extension TokenCoordinator {
    /// Empties the store before a refresh sends the refresh token it holds.
    ///
    /// - Throws: `GatewayError` of kind `.tokenStore` when the store could not be emptied
    ///   (observers hear it too).
    func withdrawStoredCredential() throws {
        do {
            try store.clear()
        } catch {
            let failure = GatewayError(
                .tokenStore, "the credential could not be removed from the token store before its refresh, so no "
                    + "refresh was started (a refresh token the server may spend is never left in the store)",
                fix: "check the token store: its error is the underlying one", underlying: error)
            for observer in observers { observer.tokenStoreFailed(failure) }
            throw failure
        }
    }

    /// Runs a store change; a failure is reported to observers, and the credential in memory
    /// stays in use.
    ///
    /// - Parameter failure: what went wrong when `change` throws, for a store whose error is not
    ///   a `GatewayError` ("the renewed credential could not be saved").
    func persist(_ failure: String, _ change: (any TokenStore) throws -> Void) {
        do {
            try change(store)
        } catch {
            let reported = Self.tokenStoreError(error, failure,
                                                fix: "check the token store; the session goes on in memory")
            for observer in observers { observer.tokenStoreFailed(reported) }
        }
    }

    /// Whether a refresh that failed with `error` certainly did not spend its refresh token: the
    /// endpoint answered with a status other than success, or the request never reached it.
    static func refreshTokenIsUnspent(after error: any Error) -> Bool {
        guard let failure = error as? GatewayError else { return false }
        if let status = failure.response?.status { return !(200..<300).contains(status) }
        guard let code = RetryPolicy.errorCode(of: failure) else { return false }
        return neverSentErrorCodes.contains(code)
    }

    /// Transport errors (`URLError.Code` raw values) that mean the request never left the device.
    static let neverSentErrorCodes: Set<Int> = [
        URLError.Code.cannotConnectToHost.rawValue, URLError.Code.cannotFindHost.rawValue,
        URLError.Code.dnsLookupFailed.rawValue, URLError.Code.notConnectedToInternet.rawValue,
    ]

    /// The store's own `GatewayError` as it is, anything else wrapped as `.tokenStore`.
    static func tokenStoreError(_ error: any Error, _ message: String, fix: String) -> GatewayError {
        if let failure = error as? GatewayError { return failure }
        return GatewayError(.tokenStore, message, fix: fix, underlying: error)
    }
}
