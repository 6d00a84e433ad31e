import Foundation
import Gateway
import Testing

/// `GatewayError` keeps its fields in one shared reference; it must still behave as a value.
@Suite struct GatewayErrorTests {
    @Test func changingACopyLeavesTheOriginalAsItWas() throws {
        let original = GatewayError(.status, "the server said no", fix: "ask again", endpoint: "GET users/42",
                                    response: HTTPResponse(status: 404, headers: [:], body: Data("gone".utf8)))
        var copy = original
        copy.kind = .decoding
        copy.message = "the body was not JSON"
        copy.fix = nil
        copy.endpoint = "GET users/43"
        copy.response = nil
        copy.request = HTTPRequest(method: .get, url: try #require(URL(string: "https://api.example.com/users/43")))
        copy.apiError = "problem"
        copy.underlying = CancellationError()

        #expect(original.kind == .status)
        #expect(original.message == "the server said no")
        #expect(original.fix == "ask again")
        #expect(original.endpoint == "GET users/42")
        #expect(original.status == 404)
        #expect(original.request == nil)
        #expect(original.apiError == nil)
        #expect(original.underlying == nil)

        #expect(copy.kind == .decoding)
        #expect(copy.message == "the body was not JSON")
        #expect(copy.fix == nil)
        #expect(copy.endpoint == "GET users/43")
        #expect(copy.status == nil)
        #expect(copy.request?.url.absoluteString == "https://api.example.com/users/43")
        #expect(copy.apiError(as: String.self) == "problem")
        #expect(copy.underlying is CancellationError)
    }

    @Test func anErrorChangedTwiceKeepsBothChanges() {
        var error = GatewayError(.transport, "the connection was lost")
        error.endpoint = "GET feed"
        let kept = error
        error.message = "the connection was reset"
        error.fix = "try again"
        #expect(error.endpoint == "GET feed" && error.message == "the connection was reset" && error.fix == "try again")
        #expect(kept.message == "the connection was lost" && kept.fix == nil)
    }
}
