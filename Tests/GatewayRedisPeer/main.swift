import Foundation

// One instance of an application sharing a Redis cache, driven over standard input and output
// by GatewayRedisTests (see `Peer`): `<id> <command>` in, `<id> <reply>` out, commands run
// concurrently. It ends at `quit` or when its input ends.
let peer: Peer
do {
    peer = try Peer(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("GatewayRedisPeer: \(error)\n".utf8))
    exit(2)
}
while let line = readLine() {
    Task.detached { await peer.handle(line) }
}
exit(0)
