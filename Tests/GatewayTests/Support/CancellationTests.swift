import Foundation
@testable import Gateway
import Testing

@Suite struct CancellationTests {
    private struct Other: Error {}

    @Test func onlyACancellationErrorIsACancellation() {
        #expect(CancellationError().isCancellation)
        let boxed: any Error = CancellationError()
        #expect(boxed.isCancellation)
        // A request refused after `invalidate()` is a GatewayError, not a task's cancellation.
        #expect(!(GatewayError(.cancelled, "the provider was invalidated") as any Error).isCancellation)
        #expect(!(URLError(.cancelled) as any Error).isCancellation)
        #expect(!(Other() as any Error).isCancellation)
    }
}
