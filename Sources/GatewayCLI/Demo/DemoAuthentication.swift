import Foundation
import Gateway

/// The demo's auth stage: the session from the last login or refresh, its access token attached
/// as `Authorization: Bearer` to requests that need one and go to the provider's own origin.
///
/// A stand-in for the shared token storage and single-flight refresh that replace it later.
final class DemoAuthentication: AuthStage {
    private let session = Locked<ExampleAPI.Session?>(nil)

    /// The current session, if logged in.
    var current: ExampleAPI.Session? { session.value }

    /// Keeps `new` as the current session.
    func store(_ new: ExampleAPI.Session) { session.withLock { $0 = new } }

    func authorize(_ request: PreparedRequest, context: RequestContext) async throws -> PreparedRequest {
        guard request.requiresAuthentication, let origin = Origin(request.url), origin == Origin(context.baseURL),
              let token = session.value?.accessToken
        else { return request }
        var request = request
        request.headers["Authorization"] = "Bearer \(token)"
        return request
    }
}
