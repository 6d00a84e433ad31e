import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `URLSessionWebSocketTask` as a `WebSocketConnection`: a task reads messages into
/// `events` until the task ends.
final class URLSessionWebSocketConnection: WebSocketConnection {
    let subprotocol: String?
    let events: AsyncStream<WebSocketEvent>
    private let task: URLSessionWebSocketTask
    private let reader: Task<Void, Never>

    init(task: URLSessionWebSocketTask, subprotocol: String?, delegate: WebSocketSessionDelegate) {
        self.task = task
        self.subprotocol = subprotocol
        let (events, output) = AsyncStream.makeStream(of: WebSocketEvent.self)
        self.events = events
        reader = Task {
            while true {
                do {
                    switch try await task.receive() {
                    case .string(let text):
                        output.yield(.text(text))
                    case .data:
                        task.cancel(with: .unsupportedData, reason: Data("binary messages are not accepted".utf8))
                    @unknown default:
                        break
                    }
                } catch {
                    let close = delegate.takeClose(of: task)
                        ?? Self.close(of: task, error)
                    output.yield(.closed(close))
                    output.finish()
                    return
                }
            }
        }
    }

    func send(_ text: String) async throws {
        do {
            try await task.send(.string(text))
        } catch {
            throw GatewayError(.transport, "the WebSocket message could not be sent", underlying: error)
        }
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        let closeCode = URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue)) ?? .normalClosure
        task.cancel(with: closeCode, reason: Data(reason.utf8.prefix(123)))
    }

    /// The close a task that stopped receiving got: its close code when it has one, else a drop.
    private static func close(of task: URLSessionWebSocketTask, _ error: any Error) -> WebSocketClose {
        if task.closeCode != .invalid {
            return WebSocketClose(code: WebSocketCloseCode(rawValue: UInt16(clamping: task.closeCode.rawValue)),
                                  reason: task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? "")
        }
        return WebSocketClose(code: .abnormalClosure, reason: GatewayError.summary(of: error))
    }
}
