/// A requestable sent in a first form that the server may answer with "send more", and then in
/// a follow-up form: a GraphQL operation with automatic persisted queries sends its hash alone,
/// and the hash with the text when the server does not know the hash.
///
/// Each form takes the whole path (queue, auth, interceptors, retries, cache) on its own.
protocol FollowedRequestable: Requestable {
    /// The form sent first, given the provider's GraphQL settings.
    func firstForm(graphQL: GraphQLSettings) -> any FollowedRequestable

    /// The form to send after this one (the first) failed with `error`, or `nil` when `error`
    /// stands.
    func followUp(after error: GatewayError) -> (any Requestable)?
}

extension Pipeline {
    /// Sends `followed`'s first form and, when its failure asks for it, the follow-up.
    func send<R: Requestable>(_ followed: any FollowedRequestable, as _: R.Type) async throws -> Response<R.Value> {
        let first = followed.firstForm(graphQL: configuration.graphQL)
        do {
            return try Self.response(of: await send(erased: first), as: R.self)
        } catch let error as GatewayError {
            guard let next = first.followUp(after: error) else { throw error }
            return try Self.response(of: await send(erased: next), as: R.self)
        }
    }
}
