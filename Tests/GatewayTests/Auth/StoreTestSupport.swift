import Foundation
@testable import Gateway
import GatewayTesting
import Testing

/// A store in memory that runs a test's hooks inside its calls (which run on the coordinator),
/// and can be made to fail.
final class HookedTokenStore: TokenStore {
    struct Hooks: Sendable {
        /// Runs as `save` is called, before the credential is held; what it throws, `save` throws.
        var save: @Sendable (Credential) throws -> Void = { _ in }
        /// Runs as `clear` is called, before anything is removed; what it throws, `clear` throws.
        var clear: @Sendable () throws -> Void = {}
    }

    private let held: Locked<Credential?>
    private let hooks = Locked(Hooks())
    /// Every call, in order: `save <access token>` or `clear`.
    let calls = Locked<[String]>([])

    init(_ credential: Credential? = nil) { held = Locked(credential) }

    /// Replaces the hooks.
    func setHooks(_ change: (inout Hooks) -> Void) { hooks.withLock { change(&$0) } }

    func load() -> Credential? { held.value }

    func save(_ credential: Credential) throws {
        calls.withLock { $0.append("save \(credential.accessToken)") }
        try hooks.value.save(credential)
        held.withLock { $0 = credential }
    }

    func clear() throws {
        calls.withLock { $0.append("clear") }
        try hooks.value.clear()
        held.withLock { $0 = nil }
    }
}

/// The error of a store made to fail.
struct StoreBroken: Error {}

/// Persistent storage that outlives a process: a `TokenStore` (in memory, or a file) that each
/// "process" opens with `open()`. A process that crashes (`StoreHandle.crash()`) writes nothing
/// more, as a killed app could not.
final class Disk: Sendable {
    enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case memory, file
        var testDescription: String { rawValue }
    }

    private let folder: URL?
    private let memory = MemoryTokenStore()
    /// Refresh tokens written while a server no longer accepted them (records of a broken promise).
    let violations = Locked<[String]>([])
    /// Says which refresh tokens the server still accepts, to check every write.
    let accepts = Locked<@Sendable (String) -> Bool>({ _ in true })

    init(_ kind: Kind, folder: URL) {
        self.folder = kind == .file ? folder.appendingPathComponent("tokens") : nil
    }

    /// What a process that starts now would read.
    func contents() throws -> Credential? { try open().load() }

    /// A handle for one process.
    func open() -> StoreHandle {
        StoreHandle(disk: self, store: folder.map { FileTokenStore(directory: $0) } ?? memory)
    }

    /// Records a write of a refresh token the server no longer accepts.
    func check(_ credential: Credential) {
        guard let token = credential.refreshToken, !accepts.value(token) else { return }
        violations.withLock { $0.append("\(token) was written after the server spent it") }
    }
}

/// One process's handle on a `Disk`, with hooks that run inside its calls.
final class StoreHandle: TokenStore {
    struct SimulatedCrash: Error {}

    private let disk: Disk
    private let store: any TokenStore
    private let crashed = Locked(false)
    /// Runs when `save` begins (before anything is written) and when it has written.
    let beforeSave = Locked<@Sendable () -> Void>({})
    let afterSave = Locked<@Sendable () -> Void>({})

    init(disk: Disk, store: any TokenStore) {
        self.disk = disk
        self.store = store
    }

    /// The process dies: from now on nothing it does reaches the disk.
    func crash() { crashed.withLock { $0 = true } }

    func load() throws -> Credential? {
        try checkAlive()
        return try store.load()
    }

    func save(_ credential: Credential) throws {
        beforeSave.value()
        try checkAlive()
        disk.check(credential)
        try store.save(credential)
        afterSave.value()
    }

    func clear() throws {
        try checkAlive()
        try store.clear()
    }

    private func checkAlive() throws {
        if crashed.value { throw SimulatedCrash() }
    }
}
