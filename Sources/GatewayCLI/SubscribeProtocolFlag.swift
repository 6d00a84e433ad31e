import Gateway

/// `gateway subscribe --protocol NAME`: how the events travel.
enum SubscribeProtocolFlag {
    static let choices: [(name: String, subscriptionProtocol: SubscriptionProtocol, help: String)] = [
        ("multipart", .multipart, "multipart HTTP (multipart/mixed; subscriptionSpec=1.0, the default)"),
        ("sse", .serverSentEvents, "server-sent events (graphql-sse, distinct connections)"),
        ("ws", .webSocket, "graphql-transport-ws over a WebSocket (ws:// or http:// endpoints)"),
    ]

    /// The names, for the usage line: `multipart|sse|ws`.
    static var names: String { choices.map(\.name).joined(separator: "|") }

    /// Each protocol's name and what it is, for the help text.
    static var help: String {
        choices.map { "\($0.name): \($0.help)" }.joined(separator: "; ")
    }

    /// `--protocol`, or multipart HTTP when it is not given.
    static func parse(_ arguments: inout Arguments) throws(UsageError) -> SubscriptionProtocol {
        guard let name = try arguments.choice("protocol", choices.map(\.name)) else { return .multipart }
        return choices.first { $0.name == name }?.subscriptionProtocol ?? .multipart
    }
}
