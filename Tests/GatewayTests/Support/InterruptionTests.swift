import Gateway
import GatewayTesting
import Testing

@Suite struct InterruptionTests {
    @Test func aHandlerRunsOnceWhenInterruptedWhileItsOperationRuns() async throws {
        let interruption = Interruption()
        let calls = Locked(0)
        let entered = Gate()
        let release = Gate()
        let running = Task {
            try await interruption.whileRunning {
                entered.open()
                try await release.wait()
            } onInterrupt: {
                calls.withLock { $0 += 1 }
                release.open()
            }
        }
        try await entered.wait()
        #expect(!interruption.isInterrupted)
        interruption.interrupt()
        interruption.interrupt()
        try await running.value
        #expect(interruption.isInterrupted)
        #expect(calls.value == 1)
        #expect(throws: CancellationError.self) { try interruption.check() }
    }

    @Test func anOperationStartedAfterTheInterruptionHasItsHandlerRunAtOnce() async throws {
        let interruption = Interruption()
        interruption.interrupt()
        let order = Locked<[String]>([])
        await interruption.whileRunning {
            order.withLock { $0.append("operation") }
        } onInterrupt: {
            order.withLock { $0.append("handler") }
        }
        #expect(order.value == ["handler", "operation"])
    }

    @Test func aHandlerIsForgottenOnceItsOperationEnds() async throws {
        let interruption = Interruption()
        let calls = Locked(0)
        let value = await interruption.whileRunning { 42 } onInterrupt: { calls.withLock { $0 += 1 } }
        interruption.interrupt()
        #expect(value == 42)
        #expect(calls.value == 0)
        #expect(throws: Never.self) { try Interruption().check() }
    }
}
