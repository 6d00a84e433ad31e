import Foundation
import GatewayTestSupport
import Testing
@testable import GatewayCLI
import MusicOperations

/// `gateway bench decode`: both rows, for the same response, and its flag; not its speed.
@Suite(.offPool) struct BenchDecodeTests {
    private func run(_ arguments: String...) async -> (Int32, CapturedOutput) {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(arguments, output: sink.output(currentDirectory: CheckCommandTests.packageRoot))
        return (status, sink)
    }

    @Test func benchDecodePrintsTheGeneratedAndTheHandWrittenRowForOneResponse() async {
        let (status, sink) = await run("bench", "decode", "--tracks", "3", "--time", "0.02")
        #expect(status == 0, "\(sink.stderr)")
        let lines = sink.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("decode generated GetPlaylist, 3 tracks (") == true, "\(sink.stdout)")
        #expect(lines.last?.hasPrefix("decode hand-written GetPlaylist, 3 tracks (") == true, "\(sink.stdout)")
    }

    @Test func theResponseDecodesIntoBothModelsAlike() throws {
        let body = DecodeBenchmark.response(tracks: 5)
        let generated = try JSONDecoder().decode(GetPlaylistQuery.Data.self, from: body)
        let handWritten = try JSONDecoder().decode(HandWrittenPlaylist.self, from: body)
        #expect(generated.playlist?.tracks.edges.map(\.node.trackSummary.title)
            == handWritten.playlist?.tracks.edges.map(\.node.title))
        #expect(generated.playlist?.tracks.edges.count == 5)
    }

    @Test func aTrackCountThatIsNotPositiveIsAUsageError() async {
        let (status, sink) = await run("bench", "decode", "--tracks", "0")
        #expect(status == 2)
        #expect(sink.stderr.contains("--tracks takes a positive number"), "\(sink.stderr)")
    }
}
