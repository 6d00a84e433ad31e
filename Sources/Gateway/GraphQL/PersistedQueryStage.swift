import Foundation

/// The form of a GraphQL request that sends its persisted-query text with the hash: what a
/// request sent by the hash alone turns to when the server does not know the hash.
package struct PersistedQueryFollowUp: Sendable {
    /// The method of the follow-up (a hash-only query may go by GET, the text by POST).
    package var method: HTTPMethod
    /// The payload with the text and the hash.
    package var parameters: [RequestParameters]
}

extension PreparedRequest {
    /// The request in its persisted-query follow-up form (the text with the hash); the request
    /// itself when it has none.
    func followedUp() -> PreparedRequest {
        guard let followUp = persistedQueryFollowUp else { return self }
        var request = self
        request.method = followUp.method
        request.parameters = followUp.parameters
        request.persistedQueryFollowUp = nil
        request.persistedQueryUse = .registered
        return request
    }
}

/// Step 9's GraphQL stage: automatic persisted queries. A request sent by its hash alone whose
/// answer says the server does not know the hash (`PERSISTED_QUERY_NOT_FOUND`) is sent again
/// at once with the text; the same queue place, credential and deadline serve both attempts.
enum PersistedQueryStage {
    /// Whether `response` asks for the text of the hash-only request `prepared`: GraphQL errors
    /// that say the hash is unknown, and no data.
    static func asksForText(_ response: HTTPResponse, sent prepared: PreparedRequest) -> Bool {
        guard prepared.persistedQueryFollowUp != nil,
              let envelope = try? GraphQLEnvelope.read(response, operation: prepared.name),
              !response.isSuccess || envelope.hasNoData
        else { return false }
        return PersistedQueryProtocol.asksForText(envelope.errors)
    }
}
