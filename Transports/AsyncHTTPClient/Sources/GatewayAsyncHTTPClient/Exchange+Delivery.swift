import AsyncHTTPClient
import NIOCore

extension Exchange {
    /// Hands the body to `consume` on the event loop: first the chunks that waited, then each
    /// one as the client reads it (see `didReceiveBodyPart`), with no task woken per read; the
    /// client reads the next while `consume` returns. Returns at the body's end.
    ///
    /// - Throws: what `consume` throws (the exchange ends with it), or the exchange's failure.
    func deliver(_ consume: @escaping @Sendable (ByteBuffer) throws -> Void) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                eventLoop.execute { [self] in
                    install(Consumer(consume: consume, ending: continuation))
                }
            }
        } onCancel: {
            fail(CancellationError())
        }
    }

    /// On the event loop, so that no chunk can arrive in between: the chunks that waited go to
    /// the consumer, which then takes the rest, or, when the exchange is already over, hears so.
    private func install(_ consumer: Consumer) {
        let (waiting, demand, over) = state.withLockedValue { state in
            let (taken, demand) = state.takeChunks()
            let waiting = (try? taken?.get()).flatMap { $0 } ?? Handout()
            switch state.phase {
            case .waitingForHead, .streaming:
                state.consumer = consumer
                return (waiting, demand, Result<Void, any Error>?.none)
            case .ended:
                return (waiting, demand, .success(()))
            case .failed(let error):
                return (waiting, demand, .failure(error))
            }
        }
        do {
            for chunk in waiting { try consumer.consume(chunk) }
        } catch {
            demand?.fail(error)
            // While the exchange runs, `fail` ends it and resumes the consumer's task.
            if over == nil { return fail(error) }
            return consumer.ending.resume(throwing: error)
        }
        demand?.succeed()
        if let over { consumer.ending.resume(with: over) }
    }
}
