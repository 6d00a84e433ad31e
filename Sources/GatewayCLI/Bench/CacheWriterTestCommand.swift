import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Gateway
import GatewaySQLite
import GraphQLLanguage

/// `gateway cache-writer-test --db PATH`: writes entries to a SQLite cache as fast as it can.
///
/// Not listed in `gateway --help`: the crash test starts it, reads its progress lines and kills
/// it at a random one, then checks that the database is sound. It prints `written N` every
/// `--progress-every` writes and `done` at the end.
struct CacheWriterTestCommand: Command {
    let name = "cache-writer-test"
    let summary = "Write cache entries until killed (for the crash test)"
    let help = """
        Usage: gateway cache-writer-test --db PATH [--count N] [--progress-every N] [--limit BYTES] [--seed N]

        Writes --count entries (default 10000) of 200 to 6000 bytes to the SQLite cache at --db,
        with a byte limit of --limit (default 4 MiB, so that eviction runs too), also reading and
        removing by tag now and then. Prints 'written N' every --progress-every writes (default 100)
        and 'done' at the end. Used by the crash test, which kills it at random points. Runs at a
        lower scheduling priority (nice 10).
        """

    func run(_ arguments: inout Arguments, output: Output) async throws -> Int32 {
        guard let path = try arguments.option("db") else { throw UsageError("--db PATH is required") }
        let count = try Self.integer(&arguments, "count", default: 10_000)
        let every = try Self.integer(&arguments, "progress-every", default: 100)
        let limit = try Self.integer(&arguments, "limit", default: 4 << 20)
        let seed = try Self.integer(&arguments, "seed", default: 1)
        _ = try arguments.positionals()
        // A helper for tests: at low priority it leaves the other tests of the run their time.
        _ = nice(10)

        let store = try SQLiteCacheStore(path: output.url(forPath: path).path, byteLimit: limit) { warning in
            output.error("gateway cache-writer-test: warning: \(warning)")
        }
        let operation = CacheKey.Operation(text: "query Item($n:Int!){item(n:$n){id payload}}", name: "Item")
        let partitions: [CachePartition] = [.anonymous, .subject("alice"), .subject("bob")]
        var random = SplitMix(seed: UInt64(seed))
        let start = Date()
        for index in 0..<count {
            let partition = partitions[Int(random.next() % 3)]
            let key = operation.key(variables: ["n": .number(JSONNumber(index)), "seed": .number(JSONNumber(seed))],
                                    endpoint: "http://127.0.0.1/graphql", partition: partition)
            let size = 200 + Int(random.next() % 5800)
            let fill = UInt8(ascii: "a") + UInt8(index % 26)
            let entry = CacheEntry(
                key: key, headers: ["Content-Type": "application/json"], body: Data(repeating: fill, count: size),
                tags: ["Item:\(index % 50)"], storedAt: start.addingTimeInterval(Double(index)),
                expiresAt: start.addingTimeInterval(Double(index + 600)))
            try await store.put(entry)
            if index % 7 == 0 { _ = try await store.get(key, now: start.addingTimeInterval(Double(index))) }
            if index % 997 == 0 { try await store.remove(.tag("Item:\(index % 50)")) }
            if (index + 1) % every == 0 { output.print("written \(index + 1)") }
        }
        try await store.flush()
        output.print("done")
        return 0
    }

    private static func integer(_ arguments: inout Arguments, _ name: String, default value: Int) throws -> Int {
        guard let text = try arguments.option(name) else { return value }
        guard let number = Int(text), number > 0 else {
            throw UsageError("--\(name) takes a whole number above 0; got '\(text)'")
        }
        return number
    }
}

/// A small seeded random number generator, so that a run can be repeated.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
