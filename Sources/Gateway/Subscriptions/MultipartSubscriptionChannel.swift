import Foundation
import GraphQLLanguage

/// Subscriptions over multipart HTTP, as Apollo Router serves them (`SubscriptionProtocol.multipart`):
/// one POST asking for `multipart/mixed;subscriptionSpec="1.0"`; the body's parts are
/// `{"payload": {…execution result…}}` for an event, `{}` for a heartbeat, and
/// `{"payload": null, "errors": […]}` when the transport fails, which ends the subscription
/// with those errors. The closing delimiter completes it.
struct MultipartSubscriptionChannel: SubscriptionChannel {
    let http: HTTPSubscriptionChannel

    init(pipeline: Pipeline) {
        http = HTTPSubscriptionChannel(pipeline: pipeline,
                                       accept: #"multipart/mixed;subscriptionSpec="1.0", application/json"#)
    }

    func open(_ subscription: SubscriptionOpening) -> AsyncThrowingStream<Data, any Error> {
        http.open(subscription) { response, yield in
            let reader = try MultipartMixedReader(contentType: response.headers["Content-Type"])
            for try await part in ReadChunks(response.body, reader: reader) {
                if let result = try Self.result(in: part.body, of: subscription.name) { yield(result) }
            }
        }
    }

    /// The execution result a part carries; `nil` for a heartbeat.
    ///
    /// - Throws: `GatewayError`: `.invalidResponse` for a part that is not a JSON object, and the
    ///   errors of a transport failure (`"payload": null`).
    static func result(in part: Data, of name: String) throws -> Data? {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: [UInt8](part))
        } catch {
            throw invalid(part, name, underlying: error)
        }
        guard case .object(let object) = json else { throw invalid(part, name, underlying: nil) }
        switch object["payload"] {
        case .object?:
            return object["payload"].map { Data($0.serialized().utf8) }
        case .null?, nil:
            guard case .array(let errors)? = object["errors"], !errors.isEmpty else {
                // A heartbeat (`{}`), or a result sent without the envelope.
                return object["data"] == nil ? nil : part
            }
            let failure = errors.map { GraphQLError(json: $0) }
            throw GatewayError(
                .graphQLErrors, "the server ended \(name) with a transport error: " + GraphQLEnvelope.summary(failure),
                fix: "subscribe again; if it keeps failing, check the server's subscription setup",
                apiError: failure)
        default:
            throw invalid(part, name, underlying: nil)
        }
    }

    private static func invalid(_ part: Data, _ name: String, underlying: (any Error)?) -> GatewayError {
        GatewayError(.invalidResponse,
                     "a part of the multipart subscription \(name) is not a JSON object: "
                        + String(decoding: part.prefix(200), as: UTF8.self),
                     fix: "check that the server speaks the multipart subscription protocol (subscriptionSpec 1.0)",
                     underlying: underlying)
    }
}
