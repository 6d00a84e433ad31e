import Foundation
import GraphQLLanguage

/// The messages of the GraphQL over WebSocket protocol (subprotocol `graphql-transport-ws`,
/// https://github.com/enisdenjo/graphql-ws/blob/master/PROTOCOL.md) that a client reads.
enum TransportWSMessage: Equatable {
    case connectionAck
    case ping
    case pong
    /// One execution result, as the compact JSON of the payload.
    case next(id: String, result: Data)
    /// The operation failed before it ran; the payload is a list of GraphQL errors.
    case error(id: String, errors: [JSONValue])
    case complete(id: String)

    /// The subprotocol's name.
    static let subprotocol = "graphql-transport-ws"

    /// Reads a message.
    ///
    /// - Throws: `TransportWSMessage.Invalid` saying what is wrong, for a message the protocol
    ///   does not allow (the client then closes with `4400`).
    init(parsing text: String) throws(Invalid) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: text)
        } catch {
            throw Invalid("a message is not JSON (\(error.message))")
        }
        guard case .object(let object) = json else { throw Invalid("a message is \(json.kindDescription), not an object") }
        guard let type = object["type"]?.stringValue else { throw Invalid("a message has no string `type`") }
        func id() throws(Invalid) -> String {
            guard let id = object["id"]?.stringValue, !id.isEmpty else {
                throw Invalid("a `\(type)` message has no string `id`")
            }
            return id
        }
        switch type {
        case "connection_ack": self = .connectionAck
        case "ping": self = .ping
        case "pong": self = .pong
        case "next":
            guard let payload = object["payload"], case .object = payload else {
                throw Invalid("a `next` message has no object `payload`")
            }
            self = .next(id: try id(), result: Data(payload.serialized(.compact).utf8))
        case "error":
            guard let errors = object["payload"]?.arrayValue else {
                throw Invalid("an `error` message has no list `payload`")
            }
            self = .error(id: try id(), errors: errors)
        case "complete": self = .complete(id: try id())
        default: throw Invalid("a message has the unknown type `\(type.prefix(40))`")
        }
    }

    /// What is wrong with a message, in words fit for a `4400` close reason.
    struct Invalid: Error, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    // MARK: - What the client sends

    /// `connection_init`, with its payload when there is one.
    static func connectionInit(_ payload: JSONObject?) -> String {
        var message: JSONObject = ["type": .string("connection_init")]
        if let payload { message["payload"] = .object(payload) }
        return JSONValue.object(message).serialized(.compact)
    }

    static let pingText = #"{"type":"ping"}"#
    static let pongText = #"{"type":"pong"}"#

    /// `subscribe` for `id` with the request object.
    static func subscribe(id: String, _ operation: GraphQLWebSocketClient.Operation) -> String {
        var payload: JSONObject = ["query": .string(operation.query)]
        if let name = operation.operationName { payload["operationName"] = .string(name) }
        if !operation.variables.isEmpty { payload["variables"] = .object(operation.variables) }
        if !operation.extensions.isEmpty { payload["extensions"] = .object(operation.extensions) }
        let message: JSONObject = ["id": .string(id), "type": .string("subscribe"), "payload": .object(payload)]
        return JSONValue.object(message).serialized(.compact)
    }

    /// `complete` for `id`: the client has stopped listening.
    static func complete(id: String) -> String {
        JSONValue.object(["id": .string(id), "type": .string("complete")]).serialized(.compact)
    }
}
