import Foundation
import GraphQLLanguage

/// A GraphQL response body read in one pass of the provider's `JSONDecoder`: `data` decoded as
/// `Value` (or why it did not decode), `errors` and `extensions` as JSON.
///
/// A body that is not a GraphQL response object fails as a whole; `GraphQLEnvelope.read` then
/// says what is wrong with it.
struct GraphQLTypedEnvelope<Value: Decodable>: Decodable {
    /// `data` decoded, or the error that says why it did not.
    let data: Result<Value, any Error>
    /// Whether `data` is absent or `null`.
    let hasNoData: Bool
    let errors: [GraphQLError]
    let extensions: JSONObject?

    private enum Member: String, CodingKey {
        case data, errors, extensions
    }

    init(data: Result<Value, any Error>, hasNoData: Bool, errors: [GraphQLError], extensions: JSONObject?) {
        self.data = data
        self.hasNoData = hasNoData
        self.errors = errors
        self.extensions = extensions
    }

    init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: Member.self)
        hasNoData = try !members.contains(.data) || members.decodeNil(forKey: .data)
        data = Result { try members.decode(Value.self, forKey: .data) }
        errors = try members.decodeIfPresent([JSONValue].self, forKey: .errors)?.map(GraphQLError.init(json:)) ?? []
        extensions = try members.decodeIfPresent(JSONValue.self, forKey: .extensions)?.objectValue
    }
}
