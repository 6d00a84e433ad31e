import Foundation
import Gateway
import GatewayDemoBackend

/// `gateway demo`: the example backend in this process and a scripted session against it.
struct DemoCommand: Command {
    let name = "demo"
    let summary = "Run the example music backend on 127.0.0.1 and a scripted session against it"
    let help = """
        Usage: gateway demo [--dir PATH] [--schema FILE] [--queries DIR]

        Starts the example music backend (REST, and GraphQL answering every operation in
        Queries/ from Schemas/music.graphql) on 127.0.0.1 inside this process, then runs a
        scripted session through one Gateway Provider with the real URLSessionTransport, the
        file token store, the refresh-token authenticator and the SQLite response cache. Its
        GraphQL operations are the Swift types generated from Queries/ (Tests/MusicOperations,
        built into this command), with typed variables and data:

          log in over REST; fetch GraphQL queries (a miss, then a hit of the same query);
          expire the access token on the backend, so that five concurrent requests, REST and
          GraphQL mixed, are refused and replayed after exactly one refresh; like a track, which
          invalidates its cached query (the re-fetch is a miss with the new data); create a
          playlist and upload its cover (a multipart upload); fetch a stream URL over REST.

        It prints what each step got back, a table of every request (kind, name, status, cache
        outcome, attempts, time), how many refreshes the backend saw, and the `gateway cache list`
        command that shows what the demo cached. Nothing leaves the machine; it takes a few
        seconds.

        Options:
          --dir PATH      The folder for the token file (PATH/tokens/credential.json) and the
                          cache (PATH/cache.sqlite), created if missing; a cache an earlier demo
                          left there is emptied first. Default: a new folder under the system's
                          temporary folder, kept after the run.
          --schema FILE   The example API's schema. Default: Schemas/music.graphql in the current
                          folder or the nearest parent folder that has one.
          --queries DIR   A folder of the example API's operations to check, against the schema
                          (an invalid operation stops the demo) and against the generated types
                          the demo sends: when the folder lacks one of their operations or has
                          changed it, a warning on standard error says the types are stale and
                          gives the command that makes them again; the demo still runs, with the
                          types it was built with. Default: the Queries folder next to Schemas,
                          when there is one.

        Colour is used only when standard output is a terminal and NO_COLOR is not set.

        Exit status:
          0  every step went as the script expects, with exactly one refresh
          1  a step did not (the table marks it), the schema or the operations could not be
             used, or the backend could not start
          2  a usage error
        """

    func run(_ arguments: inout Arguments, output: Output) async throws -> Int32 {
        let directory = try arguments.option("dir")
        let schemaPath = try arguments.option("schema")
        let queriesPath = try arguments.option("queries")
        let extra = try arguments.positionals()
        guard extra.isEmpty else {
            throw UsageError("unexpected argument '\(extra[0])'; demo takes only --dir, --schema and --queries")
        }
        for (flag, value) in [("--dir", directory), ("--schema", schemaPath), ("--queries", queriesPath)]
        where value?.isEmpty == true {
            throw UsageError("\(flag) needs a path")
        }

        let setup: DemoSetup
        do {
            let folder = directory.map { output.url(forPath: $0) } ?? DemoSetup.temporaryFolder()
            setup = try DemoSetup(
                folder: folder, schema: schemaPath.map { output.url(forPath: $0) },
                queries: queriesPath.map { output.url(forPath: $0) }, searchingFrom: output.currentDirectory)
        } catch {
            output.error("gateway demo: \(error)")
            return 1
        }

        if let warning = setup.warning { output.error("gateway demo: warning: \(warning)") }

        let backend: ExampleBackend
        do {
            backend = try ExampleBackend(schema: setup.schema)
        } catch {
            output.error("gateway demo: the example backend could not start: \(error)")
            return 1
        }
        defer { backend.shutdown() }

        do {
            try await setup.cache.invalidate(.all)
        } catch {
            output.error("gateway demo: could not empty the cache an earlier demo left in \(setup.cachePath): \(error)")
            return 1
        }
        let recorder = DemoRecorder()
        let provider = setup.provider(baseURL: backend.baseURL, recorder: recorder)
        defer { provider.invalidate() }
        let script = DemoScript(provider: provider, backend: backend, recorder: recorder)
        let results = await script.run()
        do {
            try await setup.cacheStore.flush()
        } catch {
            output.error("gateway demo: the cache's last statistics could not be written: \(error)")
        }
        let report = DemoReport(results: results, rows: script.rows, refreshes: backend.refreshCount)

        output.print("Example music backend on \(backend.baseURL.absoluteString) (REST and GraphQL), "
                     + "one Provider over URLSessionTransport.")
        output.print("Tokens: \(setup.tokenStore.fileURL.path)")
        output.print("Cache:  \(setup.cachePath)")
        output.print("")
        output.print(report.steps(colour: output.usesColor))
        output.print("")
        output.print(report.table(colour: output.usesColor))
        output.print("")
        output.print(report.refreshLine)
        output.print(report.summary)
        output.print("")
        output.print("See what the demo cached:")
        output.print("  gateway cache list --db \(DemoSetup.shellQuoted(setup.cachePath))")
        if !report.allAsExpected {
            output.error("gateway demo: \(report.summary)")
            return 1
        }
        return 0
    }
}
