import Foundation
import GraphQLLanguage

/// What carries one GraphQL subscription, whatever the protocol: it opens the subscription and
/// hands over each execution result's JSON object (`{"data":…,"errors":…}`) as it arrives.
///
/// The stream ends when the server completes the subscription and throws when it fails; ending
/// the stream's consumer (cancelling its task, or dropping it) ends the subscription on the
/// server. `Provider.subscribe` decodes the results and handles an "unauthenticated" one.
protocol SubscriptionChannel: Sendable {
    func open(_ subscription: SubscriptionOpening) -> AsyncThrowingStream<Data, any Error>
}

/// What any subscription protocol needs to open a subscription.
struct SubscriptionOpening: Sendable {
    /// `subscription OnTick`: how errors and observers name it.
    var name: String
    /// The GraphQL endpoint (`GraphQLSettings.path` joined to the provider's base URL).
    var url: URL
    /// The request's own header fields (the provider's defaults and credentials are added on
    /// the way, as for any request).
    var headers: HTTPHeaders
    /// The request body's members: query text, operationName, variables, extensions.
    var payload: GraphQLPayload
    var requiresAuthentication: Bool
    var priority: RequestPriority
    /// The longest silence accepted; the provider's `timeout` when `nil`.
    var timeout: Duration?
    /// The budget for opening the subscription (not for its events); the provider's when `nil`.
    var deadline: Duration?
    /// Which GraphQL errors mean "not authenticated" (`GraphQLSettings.unauthenticated`).
    var unauthenticated: GraphQLErrorPredicate
    /// Where a channel that sends HTTP requests leaves the request it sent and the response
    /// head, for the events' `GraphQLResponse` and for a credential refresh.
    let record = SubscriptionRecord()

    /// The operation's text.
    var query: String { payload.query ?? "" }
    var operationName: String? { payload.operationName }
    var variables: JSONObject { payload.variables }
    var extensions: JSONObject { payload.extensions }
}

/// The request a subscription was last opened with and the response head that accepted it.
final class SubscriptionRecord: Sendable {
    private let state = Locked<(request: HTTPRequest?, head: HTTPResponse?)>((nil, nil))

    /// Records an opening over HTTP.
    func opened(_ request: HTTPRequest, head: HTTPResponse) {
        state.withLock { $0 = (request, head) }
    }

    var request: HTTPRequest? { state.withLock { $0.request } }
    var head: HTTPResponse? { state.withLock { $0.head } }
}
