import Foundation

/// A requestable whose body's progress is watched: what `Provider.upload(_:)` sends. It goes
/// through every step as the wrapped requestable would; its request carries the reporter the
/// transport calls as the body goes out (step 5).
struct Upload<Wrapped: Requestable>: Requestable {
    let wrapped: Wrapped
    let progress: BodyProgress

    var name: String { wrapped.name }

    func prepare(baseURL: URL) throws -> PreparedRequest {
        var prepared = try wrapped.prepare(baseURL: baseURL)
        prepared.bodyProgress = progress
        return prepared
    }

    func prepare(baseURL: URL, graphQL: GraphQLSettings) throws -> PreparedRequest {
        var prepared = try wrapped.prepare(baseURL: baseURL, graphQL: graphQL)
        prepared.bodyProgress = progress
        return prepared
    }

    func validate(_ response: HTTPResponse, context: ResponseDecodingContext) -> GatewayError? {
        wrapped.validate(response, context: context)
    }

    func decode(_ response: HTTPResponse, context: ResponseDecodingContext) throws -> Wrapped.Value {
        try wrapped.decode(response, context: context)
    }
}
