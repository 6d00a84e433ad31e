import Foundation
import Gateway

/// `gateway demo`: the example backend in this process and a scripted session against it.
struct DemoCommand: Command {
    let name = "demo"
    let summary = "Run the example music backend on 127.0.0.1 and a scripted session against it"
    let help = """
        Usage: gateway demo [--dir PATH]

        Starts the example music backend (its REST side: login, token refresh, tracks, search and
        stream URLs) on 127.0.0.1 inside this process, then runs a scripted session against it
        through one Gateway Provider with the real URLSessionTransport:

          log in, fetch two tracks, search (parameters encoded into the query as kinds[]=…),
          ask for a track that does not exist (the 404's error body decoded into the error),
          ask for a stream URL without a token (401) and with the bearer token, refresh the
          tokens, and ask again with the new token.

        It prints what each step got back, then a table of every request: kind, name, method and
        path as sent, status, outcome, attempts and time. Nothing leaves the machine; it takes a
        few seconds.

        Options:
          --dir PATH   A folder for the demo's files, created if missing. Reserved for the token
                       file and the response cache; nothing is written there yet.

        Colour is used only when standard output is a terminal and NO_COLOR is not set.

        Exit status:
          0  every request went as the script expects
          1  a request did not (the table marks it), or the backend could not start
          2  a usage error
        """

    func run(_ arguments: inout Arguments, output: Output) async throws -> Int32 {
        let directory = try arguments.option("dir")
        let extra = try arguments.positionals()
        guard extra.isEmpty else { throw UsageError("unexpected argument '\(extra[0])'; demo takes only --dir") }
        guard directory?.isEmpty != true else { throw UsageError("--dir needs a folder path") }
        var folder: URL?
        if let directory {
            let url = output.url(forPath: directory)
            do {
                try Self.prepare(folder: url)
            } catch {
                output.error("gateway demo: \(error)")
                return 1
            }
            folder = url
        }

        let backend: ExampleBackend
        do {
            backend = try ExampleBackend()
        } catch {
            output.error("gateway demo: the example backend could not start: \(error)")
            return 1
        }
        defer { backend.shutdown() }

        let recorder = DemoRecorder()
        let script = DemoScript(baseURL: backend.baseURL, recorder: recorder)
        let results = await script.run()
        let report = DemoReport(results: results, records: recorder.records)

        output.print("Example music backend on \(backend.baseURL.absoluteString), "
                     + "one Provider over URLSessionTransport.")
        if let folder { output.print("Folder: \(folder.path) (reserved for the token file and the response cache)") }
        output.print("")
        output.print(report.steps(colour: output.usesColor))
        output.print("")
        output.print(report.table(colour: output.usesColor))
        output.print("")
        output.print(report.summary)
        if !report.allAsExpected {
            output.error("gateway demo: \(report.summary)")
            return 1
        }
        return 0
    }

    /// Creates `folder` (and its parents) unless it exists; a file in its place is an error.
    static func prepare(folder: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw DemoFolderError(message: "--dir \(folder.path) is a file, not a folder; "
                                      + "give a folder path (it is created if missing)")
            }
            return
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw DemoFolderError(message: "could not create the folder \(folder.path) for --dir "
                                  + "(\((error as NSError).localizedDescription)); check the path and its permissions")
        }
    }
}

/// `--dir` cannot be used.
struct DemoFolderError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
