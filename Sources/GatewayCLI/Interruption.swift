#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Ctrl-C (SIGINT) while a command runs: `action` instead of the process ending at once, so the
/// command can finish what it started (end a subscription on the server, say) and exit 130.
/// A second Ctrl-C after `end()` ends the process as usual.
final class Interruption {
    private let source: any DispatchSourceSignal

    init(_ action: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler(handler: action)
        source.resume()
    }

    /// Puts the default handling back.
    func end() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
