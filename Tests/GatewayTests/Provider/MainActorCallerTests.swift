import Foundation
@testable import Gateway
import Testing

/// An app calls the provider from the main actor; the request's pipeline and its transport
/// exchange run elsewhere, so the main actor is never held by the work a request starts.
/// (`Provider.send`, `value` and `stream` are `@concurrent`; `task` and `download` start their
/// request in a task that does not begin on the calling thread.)
@Suite struct MainActorCallerTests {
    let recorder = ThreadRecorder()
    let provider: Provider

    init() throws {
        let recorder = recorder
        provider = Provider(baseURL: try #require(URL(string: "https://api.example.com/v1/")), transport: recorder) {
            $0.observers = [recorder]
        }
    }

    @MainActor @Test func aRequestSentFromTheMainActorRunsItsPipelineOffTheMainThread() async throws {
        #expect(ThreadRecorder.onMain, "the test itself runs on the main actor's queue")
        let response = try await provider.send(Endpoint<Data>.get("items"))
        #expect(response.httpResponse.status == 200)
        #expect(recorder.stepNames.contains("transport"))
        #expect(recorder.stepsOnMain == [])
    }

    @MainActor @Test func aValueAskedForFromTheMainActorRunsItsPipelineOffTheMainThread() async throws {
        #expect(ThreadRecorder.onMain, "the test itself runs on the main actor's queue")
        let value = try await provider.value(Endpoint<Data>.get("items"))
        #expect(value == ThreadRecorder.body)
        #expect(recorder.stepNames.contains("transport"))
        #expect(recorder.stepsOnMain == [])
    }

    @MainActor @Test func aStreamOpenedFromTheMainActorRunsItsPipelineOffTheMainThread() async throws {
        #expect(ThreadRecorder.onMain, "the test itself runs on the main actor's queue")
        let stream = try await provider.stream(Endpoint<Data>.get("events"))
        var received = Data()
        for try await chunk in stream { received.append(chunk) }
        #expect(received == ThreadRecorder.body)
        #expect(recorder.stepNames.contains("transport"))
        #expect(recorder.stepsOnMain == [])
    }

    @MainActor @Test func aTaskStartedFromTheMainActorRunsItsPipelineOffTheMainThread() async throws {
        #expect(ThreadRecorder.onMain, "the test itself runs on the main actor's queue")
        let value = try await provider.task(Endpoint<Data>.get("items")).value
        #expect(value == ThreadRecorder.body)
        #expect(recorder.stepNames.contains("transport"))
        #expect(recorder.stepsOnMain == [])
    }

    @MainActor @Test func aDownloadStartedFromTheMainActorRunsItsPipelineOffTheMainThread() async throws {
        #expect(ThreadRecorder.onMain, "the test itself runs on the main actor's queue")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let destination = folder.url.appendingPathComponent("items.json")
        let response = try await provider.download(Endpoint<Data>.get("items"), to: destination).response
        #expect(response.httpResponse.status == 200)
        #expect(try Data(contentsOf: destination) == ThreadRecorder.body)
        #expect(recorder.stepNames.contains("transport"))
        #expect(recorder.stepsOnMain == [])
    }
}
