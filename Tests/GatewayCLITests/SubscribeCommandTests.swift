import Foundation
import GatewayTestSupport
import GatewayTesting
import Testing
@testable import GatewayCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `gateway subscribe` against strawberry-graphql on uvicorn (the server of
/// Tests/GatewayTests/Streaming/subscription_server.py), over multipart HTTP, server-sent
/// events and graphql-transport-ws (SocketWebSocketTransport on Linux). Skipped, saying so, where strawberry-graphql or uvicorn is not installed.
@Suite(.requires(.strawberry) { try await CLISubscriptionPeer.isRunning() }, .timeLimit(.minutes(3)))
struct SubscribeCommandTests {
    static let protocols = ["multipart", "sse", "ws"]

    @Test(arguments: protocols)
    func printsAThousandEventsInOrderOneJSONLineEachAndExitsZeroWhenTheServerCompletes(_ name: String) async throws {
        let peer = try #require(try await CLISubscriptionPeer.shared.value)
        let folder = try SubscriptionFiles()
        let (status, sink) = await run([
            folder.count, "--endpoint", peer.baseURL + "/graphql", "--protocol", name, "--var", "to=1000",
        ])
        #expect(status == 0, "\(sink.stderr)")
        let lines = sink.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1000)
        #expect(lines.enumerated().allSatisfy { $1 == "{\"data\":{\"count\":\($0 + 1)}}" })
        #expect(sink.stderr.isEmpty)
    }

    @Test(arguments: protocols)
    func anInterruptEndsTheSubscriptionOnTheServerAndExits130(_ name: String) async throws {
        let peer = try #require(try await CLISubscriptionPeer.shared.value)
        let binary = try #require(GatewayExecutable.url(), "the gateway executable is missing: run swift build first")
        let folder = try SubscriptionFiles()
        let subscriber = "interrupted-\(name)-\(UInt32.random(in: 0...UInt32.max))"
        let (status, firstLine) = try await OffPool.blocking {
            try Self.interruptAfterFirstLine(binary, [
                "subscribe", folder.hold, "--endpoint", peer.baseURL + "/graphql", "--protocol", name, "--var", "name=\(subscriber)",
            ])
        }
        #expect(firstLine == "{\"data\":{\"hold\":1}}")
        #expect(status == 130)
        // The server answers once the subscription has ended there (or false after 20 s).
        let (queryStatus, sink) = await QueryFiles.run([
            folder.ended, "--endpoint", peer.baseURL + "/graphql", "--var", "name=\(subscriber)", "--deadline", "60",
        ])
        #expect(queryStatus == 0)
        #expect(sink.stdout.contains("\"ended\":true"), "\(sink.stdout)")
    }

    @Test func aQueryIsRefusedWithTheVerbToSendItBy() async throws {
        let folder = try SubscriptionFiles()
        let (status, sink) = await run([folder.ended, "--endpoint", "http://127.0.0.1:9/graphql", "--var", "name=x"])
        #expect(status == 2)
        #expect(sink.stderr.contains("is a query, not a subscription; send it with gateway query"))
    }

    @Test func flagsThatMeanNothingForASubscriptionAreRefused() async throws {
        let folder = try SubscriptionFiles()
        let (status, sink) = await run([folder.count, "--endpoint", "http://127.0.0.1:9/graphql", "--persisted", "--get"])
        #expect(status == 2)
        #expect(sink.stderr.contains("gateway subscribe does not take --persisted, --get"))
    }

    @Test func anUnknownProtocolIsRefusedNamingTheOthers() async throws {
        let folder = try SubscriptionFiles()
        let (status, sink) = await run([folder.count, "--endpoint", "http://127.0.0.1:9/graphql", "--protocol", "smoke"])
        #expect(status == 2)
        #expect(sink.stderr.contains("--protocol must be one of \(SubscribeProtocolFlag.choices.map(\.name).joined(separator: ", "))"))
    }

    @Test func aMissingVariableIsAUsageErrorInTheSubscribeVerbsName() async throws {
        let folder = try SubscriptionFiles()
        let (status, sink) = await run([folder.count, "--endpoint", "http://127.0.0.1:9/graphql"])
        #expect(status == 2)
        #expect(sink.stderr.hasPrefix("gateway subscribe: "))
        #expect(sink.stderr.contains("$to"))
    }

    private func run(_ arguments: [String]) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(["subscribe"] + arguments, output: sink.output())
        return (status, sink)
    }

    /// Runs `gateway` with `arguments`, reads standard output until its first line, sends SIGINT
    /// and waits for it to exit.
    static func interruptAfterFirstLine(_ binary: URL, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var buffer = Data()
        while !buffer.contains(0x0A) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let firstLine = String(decoding: buffer.prefix { $0 != 0x0A }, as: UTF8.self)
        return (process.terminationReason == .exit ? process.terminationStatus : -1, firstLine)
    }
}

/// The subscription server of the library's tests, started once for this test process.
enum CLISubscriptionPeer {
    static let shared = Task<PythonPeer?, any Error> {
        let script = QueryFileChecks.packageRoot(containing: #filePath)
            .appendingPathComponent("Tests/GatewayTests/Streaming/subscription_server.py")
        return try await PythonPeer.launch(script: try String(contentsOf: script, encoding: .utf8))
    }

    static func isRunning() async throws -> Bool { try await shared.value != nil }
}

/// The operations the tests send, in a folder of their own.
struct SubscriptionFiles {
    let count: String
    let hold: String
    let ended: String

    init() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("gateway-subscribe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws -> String {
            let file = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            return file.path
        }
        count = try write("Count.graphql", "subscription Count($to: Int!) { count(to: $to) }\n")
        hold = try write("Hold.graphql", "subscription Hold($name: String!) { hold(name: $name) }\n")
        ended = try write("Ended.graphql", "query Ended($name: String!) { ended(name: $name) }\n")
    }
}
