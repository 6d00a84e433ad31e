import Foundation
import GatewayTesting
import NIOCore
import NIOHTTP1
import NIOPosix

/// The HTTP benchmark's server, in a child process (`peers serve KIND`) so that the CPU time and
/// memory measured are the clients' alone. It answers every GET with the same 628-byte JSON body.
enum BenchServer {
    /// Which server answers.
    enum Kind: String, Sendable, CaseIterable {
        /// SwiftNIO's HTTP/1.1 server on one event loop: fast enough that the clients are the
        /// limit (the role nginx plays in the platform notes).
        case nio
        /// Gateway's `LoopbackServer` (a thread per connection), as `gateway bench pipeline` uses.
        case loopback
    }

    /// A 628-byte JSON body, like the one the platform notes were measured with.
    static let body: Data = {
        var text =
            #"{"id":42,"name":"Ada Lovelace","email":"ada@example.com","tags":["math","poetry","engines"],"bio":""#
        let closing = #""}"#
        text += String(repeating: "x", count: 628 - text.utf8.count - closing.utf8.count) + closing
        return Data(text.utf8)
    }()

    /// Tells the parent process the port, unbuffered.
    private static func announce(_ port: Int) {
        FileHandle.standardOutput.write(Data("\(port)\n".utf8))
    }

    /// `peers serve KIND`: prints the port, then serves until standard input closes.
    static func serve(_ kind: Kind) async throws {
        let stop: () async throws -> Void
        switch kind {
        case .loopback:
            let server = try LoopbackServer { _ in .data(body, contentType: "application/json") }
            announce(server.port)
            stop = { server.shutdown() }
        case .nio:
            let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { channel in
                    channel.pipeline.configureHTTPServerPipeline().flatMap {
                        channel.pipeline.addHandler(FixedResponder())
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
            announce(channel.localAddress?.port ?? 0)
            stop = { try await channel.close() }
        }
        await Task.detached {
            while let line = readLine(strippingNewline: true), !line.isEmpty {}
        }.value
        try await stop()
    }
}

/// Answers each request with `BenchServer.body`, keeping the connection open.
final class FixedResponder: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: "\(BenchServer.body.count)")
        let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        let buffer = context.channel.allocator.buffer(bytes: BenchServer.body)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

/// A child process of this executable, started with `arguments`, talking over its standard
/// input and output.
final class ChildProcess: Sendable {
    private let process: Process
    private let input: Pipe
    private let output: Pipe

    init(_ arguments: [String]) throws {
        process = Process()
        #if os(Linux)
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        #else
        process.executableURL = Bundle.main.executableURL
        #endif
        process.arguments = arguments
        input = Pipe()
        output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// The next line the child prints (empty at the end of its output).
    func readLine() async -> String {
        let handle = output.fileHandleForReading
        return await Task.detached {
            var bytes = Data()
            while true {
                guard let byte = try? handle.read(upToCount: 1), let first = byte.first else { break }
                if first == UInt8(ascii: "\n") { break }
                bytes.append(first)
            }
            return String(decoding: bytes, as: UTF8.self)
        }.value
    }

    /// Closes the child's standard input and waits for it to end.
    func finish() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
