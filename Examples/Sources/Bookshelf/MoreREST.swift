import Foundation
import Gateway

// The README's "More on REST" block, inside a function so that it compiles.
enum MoreREST {
    static func tour() async throws {
        struct User: Decodable, Sendable { let id: Int; let name: String }
        struct NewUser: Encodable, Sendable { let name: String }
        struct UserQuery: Encodable, Sendable { let name: String; let tags: [String] }

        let provider = Provider(baseURL: URL(string: "https://api.example.com/v1/")!) { config in
            config.headers["Accept-Language"] = "en"
            config.timeout = .seconds(20)
        }

        // A typed endpoint carries its response type; `value` returns just the decoded value,
        // `send` the value with the HTTP response and the request's metrics.
        let user = try await provider.value(Endpoint<User>.get("users/42"))

        // Parameters are encoded in the encode stage, just before sending: never for a request
        // that was cancelled while it waited, and again for a retry. Every method takes its query
        // as `[URLQueryItem]` or as an `Encodable` value.
        let found = try await provider.send(
            Endpoint<[User]>.get("users", query: UserQuery(name: "ada", tags: ["a", "b"]),
                                 queryEncoder: .query(arrays: .brackets)))
        print(found.value.count, found.status, found.metrics.total)

        do {
            _ = try await provider.send(Endpoint<User>.post("users", body: NewUser(name: "Ada")).apiError(APIProblem.self))
        } catch let error as GatewayError {
            print(error)                                // what went wrong, where, and how to fix it
            print(error.apiError(as: APIProblem.self)?.message ?? "")  // the server's error body, decoded
        }

        // A request started with `task` runs on its own and does not keep the provider alive:
        // releasing the provider (or `provider.invalidate()`) ends it with a cancellation.
        // `invalidate()` ends calls to `send` too, without cancelling the tasks that await them.
        let pending = provider.task(Endpoint<User>.get("users/7"))
        let seven = try await pending.value
        _ = (user, seven)
    }
}
