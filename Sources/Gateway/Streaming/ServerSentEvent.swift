import Foundation

/// One event of a `text/event-stream` body, as the HTML standard's event-stream format
/// dispatches it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The `event` field: the event's type; `"message"` when the event names none.
    public var type: String
    /// The `data` fields joined by line feeds.
    public var data: String
    /// The last `id` field seen up to this event (it carries over to later events); send it as
    /// `Last-Event-ID` when reconnecting. Empty when the stream has given none.
    public var lastEventID: String
    /// The `retry` field of this event, when it had a valid one: how long to wait before
    /// reconnecting.
    public var retry: Duration?

    /// Creates an event.
    public init(type: String = "message", data: String, lastEventID: String = "", retry: Duration? = nil) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
        self.retry = retry
    }
}
