import Foundation
import Gateway
import Testing

/// The mode of the file or directory at `path`.
private func mode(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return try #require(attributes[.posixPermissions] as? Int) & 0o777
}

extension TokenTests {
    /// Issue 7, "Done when" 8: modes whatever the umask (the umask belongs to the process, so these
    /// run one at a time).
    @Suite(.serialized) struct FileTokenStoreModeTests {
        @Test(arguments: [0o022, 0o002, 0o077] as [mode_t])
        func aSavedCredentialIs0600InA0700DirectoryWhateverTheUmask(mask: mode_t) throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let previous = umask(mask)
            defer { umask(previous) }
            let store = FileTokenStore(directory: folder.url.appendingPathComponent("app/tokens"))

            try store.save(oldCredential)
            #expect(try mode(of: store.directory.path) == 0o700)
            #expect(try mode(of: store.fileURL.path) == 0o600)
            #expect(try store.load() == oldCredential)
            var renewed = oldCredential
            renewed.accessToken = "new"
            try store.save(renewed)
            #expect(try mode(of: store.fileURL.path) == 0o600)
            #expect(try store.load() == renewed)
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path) == ["credential.json"])
        }
    }
}

extension TokenTests {
    @Suite struct FileTokenStoreTests {
        let folder: TemporaryFolder
        let store: FileTokenStore

        init() throws {
            folder = try TemporaryFolder()
            store = FileTokenStore(directory: folder.url.appendingPathComponent("tokens"))
        }

        @Test(arguments: [0o644, 0o640, 0o604, 0o660])
        func aFileOthersCanReadIsRefusedWithAClearError(fileMode: Int) throws {
            defer { folder.remove() }
            try store.save(oldCredential)
            let bytes = try Data(contentsOf: store.fileURL)
            #expect(chmod(store.fileURL.path, mode_t(fileMode)) == 0)

            let error = try #require(throws: GatewayError.self) { try store.load() }
            #expect(error.kind == .tokenStore)
            #expect(error.message.contains(store.fileURL.path))
            #expect(error.message.contains("can be read by other users (mode 0\(String(fileMode, radix: 8)))"))
            #expect(error.fix?.contains("delete it and sign in again") == true)
            #expect(!error.description.contains("rt-1"))
            #expect(try Data(contentsOf: store.fileURL) == bytes)
        }

        @Test func aDirectoryOthersCanEnterIsRefused() throws {
            defer { folder.remove() }
            try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
            #expect(chmod(store.directory.path, 0o755) == 0)
            let saving = try #require(throws: GatewayError.self) { try store.save(oldCredential) }
            #expect(saving.message.contains("is open to other users (mode 0755)"))
            #expect(saving.fix?.contains("chmod 700") == true)
            #expect(throws: GatewayError.self) { try store.load() }
            #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
        }

        @Test func aDamagedFileIsAClearErrorAndIsLeftAsItIs() throws {
            defer { folder.remove() }
            try store.save(oldCredential)
            let garbage = Data(#"{"format":1,"credential":{"access_tok"#.utf8)
            try garbage.write(to: store.fileURL)
            #expect(chmod(store.fileURL.path, 0o600) == 0)
            let error = try #require(throws: GatewayError.self) { try store.load() }
            #expect(error.kind == .tokenStore)
            #expect(error.message.contains("is not a credential this store wrote"))
            #expect(try Data(contentsOf: store.fileURL) == garbage)
        }

        @Test func aSymbolicLinkIsRefused() throws {
            defer { folder.remove() }
            try store.save(oldCredential)
            let elsewhere = folder.url.appendingPathComponent("planted.json")
            try FileManager.default.moveItem(at: store.fileURL, to: elsewhere)
            try FileManager.default.createSymbolicLink(at: store.fileURL, withDestinationURL: elsewhere)
            let error = try #require(throws: GatewayError.self) { try store.load() }
            #expect(error.message.contains("is a symbolic link"))
        }

        @Test func nothingStoredIsNilAndClearingNothingIsFine() throws {
            defer { folder.remove() }
            #expect(try store.load() == nil)
            try store.clear()
            try store.save(oldCredential)
            let leftover = store.directory.appendingPathComponent(".credential.json.1234.tmp")
            try "leftover".write(to: leftover, atomically: false, encoding: .utf8)
            try store.clear()
            #expect(try store.load() == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path).isEmpty)
        }

        @Test func tenThousandConcurrentReadsAndWritesNeverSeeAHalfWrittenCredential() async throws {
            defer { folder.remove() }
            try store.save(Self.numbered(0))
            let threads = 4, operationsPerThread = 2_500, writeEvery = 10
            let problems = Locked<[String]>([])
            let reads = Locked(0)
            let store = store
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let remaining = Locked(threads)
                for thread in 0..<threads {
                    Thread {
                        for operation in 0..<operationsPerThread {
                            let number = thread * operationsPerThread + operation
                            do {
                                if number % writeEvery == 0 {
                                    try store.save(Self.numbered(number))
                                } else if let credential = try store.load() {
                                    reads.withLock { $0 += 1 }
                                    if let problem = Self.inconsistency(in: credential) {
                                        problems.withLock { $0.append(problem) }
                                    }
                                } else {
                                    problems.withLock { $0.append("no credential") }
                                }
                            } catch {
                                problems.withLock { $0.append("\(error)") }
                            }
                        }
                        if remaining.withLock({ count -> Bool in
                            count -= 1
                            return count == 0
                        }) { done.resume() }
                    }.start()
                }
            }
            #expect(problems.value.count == 0, "\(problems.value.prefix(3))")
            #expect(reads.value == threads * operationsPerThread * (writeEvery - 1) / writeEvery)
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path) == ["credential.json"])
        }

        /// A credential whose fields all carry `number`, with a long token so that a torn write shows.
        static func numbered(_ number: Int) -> Credential {
            Credential(accessToken: "a\(number)-" + String(repeating: "x", count: 600) + "-\(number)",
                       refreshToken: "r\(number)", expiresAt: Date(timeIntervalSince1970: Double(number)),
                       subject: "\(number)")
        }

        /// What is wrong with a credential read back, if anything.
        static func inconsistency(in credential: Credential) -> String? {
            guard let subject = credential.subject, let number = Int(subject) else { return "no subject" }
            return credential == numbered(number) ? nil : "a credential mixing writes (subject \(subject))"
        }
    }
}
