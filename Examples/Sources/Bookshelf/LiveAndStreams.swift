import Foundation
import Gateway

// The README's "Live queries and streamed bodies" block, inside a function so that it compiles.
enum LiveAndStreams {
    static func tour(provider: Provider) async throws {
        struct User: Decodable, Sendable { let id: Int; let name: String }

        // A live query: the cached value, the network's, then again whenever its cache entry
        // changes (another fetch stores a new answer; an invalidation, a mutation naming its
        // types or a logout removes it and the network is asked again), until the loop ends.
        for try await user in provider.watch(Endpoint<User>.get("users/42")) {
            print(user.value.name, user.cacheOutcome)
        }

        // A body read as it arrives: server-sent events (`textLines()` and `MultipartMixedReader`
        // read lines and multipart parts the same way), each line and event bounded in size.
        let transport = URLSessionTransport()
        let events = try await transport.send(HTTPRequest(method: .get, url: URL(string: "https://api.example.com/v1/events")!))
        for try await event in events.body.serverSentEvents() {
            print(event.type, event.data, event.lastEventID)
        }
    }
}
