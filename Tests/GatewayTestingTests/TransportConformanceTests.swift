import Foundation
import Gateway
import GatewayTestSupport
import GatewayTesting
import Testing

/// The conformance checks themselves: each transport made is shut down, and a transport that
/// breaks the contract fails the checks.
@Suite(.quietScheduler) struct TransportConformanceTests {
    @Test func everyTransportAChecksMakesIsShutDown() async throws {
        let counts = Counts()
        let conformance = TransportConformance(
            shutdown: { _ in counts.shutDown() },
            makeTransport: { settings in
                counts.made(settings)
                return URLSessionTransport(timeout: settings.timeout, maxRedirects: settings.maxRedirects)
            }
        )
        try await conformance.run(.noContentHasAnEmptyBody)
        try await conformance.run(.theRedirectLimitCanBeLowered)
        #expect(counts.value.made == 2)
        #expect(counts.value.shutDown == 2)
        #expect(counts.value.settings.last?.maxRedirects == 2)
    }

    @Test func aTransportThatNeverReachesTheServerFailsARoundTripCheck() async throws {
        await withKnownIssue {
            try await TransportConformance { _ in AnsweringTransport() }
                .run(.getRoundTripCarriesHeadersAndQueryAndReturnsTheBodyByteForByte)
        }
    }

    @Test func aTransportThatIgnoresTheSizeLimitFailsTheSizeCheck() async throws {
        await withKnownIssue {
            try await TransportConformance { _ in AnsweringTransport() }.run(
                .anOversizedBodyEndsInResponseTooLargeWithoutHoldingIt)
        }
    }

    @Test func everyCheckHasADistinctSentenceForAName() {
        let names = TransportConformance.Check.allCases.map(\.description)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.first?.isLowercase == true && $0.count > 20 })
    }
}

/// Answers every request with 200 "ok" without any network: a transport that breaks the contract.
private struct AnsweringTransport: Transport {
    func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        StreamedResponse(HTTPResponse(status: 200, body: Data("ok".utf8), url: request.url))
    }
}

/// How many transports a conformance run made and shut down.
private final class Counts: Sendable {
    struct Value {
        var made = 0
        var shutDown = 0
        var settings: [TransportConformance.Settings] = []
    }

    private let storage = Locked(Value())

    var value: Value { storage.value }

    func made(_ settings: TransportConformance.Settings) {
        storage.withLock {
            $0.made += 1
            $0.settings.append(settings)
        }
    }

    func shutDown() { storage.withLock { $0.shutDown += 1 } }
}
