import Foundation

/// `peers`: Gateway measured side by side with GraphQLSwift and with bare URLSession and
/// async-http-client, in one run, printing ratios against Gateway.
///
///     peers [--json] [--only graphql|http] [--budget SECONDS] [--runs N]
///           [--requests N] [--parallel-requests N] [--server nio|loopback] [--url URL]
///           [--corpora PATH]
///     peers download [--bytes N] [--runs N] [--clients provider,bare,curl]  # see `DownloadBenchmark`
let usage = """
    usage: peers [--json] [--only graphql|http] [--budget SECONDS] [--runs N] [--requests N]
                 [--parallel-requests N] [--server nio|loopback] [--url URL] [--corpora PATH]

      --json               one JSON object per benchmark instead of tables
      --only               run only the GraphQL or only the HTTP benchmarks
      --budget             seconds of sampling per GraphQL measurement (default 0.5)
      --runs               rounds of HTTP measurements (default 5)
      --requests           requests per sequential HTTP run (default 3000)
      --parallel-requests  requests per HTTP run with 64 in flight (default 6000)
      --server             the child-process server: SwiftNIO (nio, default) or Gateway's LoopbackServer
      --url                measure against this server instead (GET URL/item must answer 628 bytes)
      --corpora            the corpus folder (default: ../shared/corpora from the package root)
    """

struct Options {
    var json = false
    var only: String?
    var budget = 0.5
    var runs = 5
    var requests = 3_000
    var parallelRequests = 6_000
    var server = BenchServer.Kind.nio
    var url: URL?
    var corpora = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/corpora")

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let next = rest.popFirst() else { throw PeerFailure("\(name) needs a value\n\(usage)") }
            return next
        }
        func number<T: LosslessStringConvertible>(_ name: String) throws -> T {
            let text = try value(name)
            guard let parsed = T(text) else { throw PeerFailure("\(name) takes a number, not '\(text)'") }
            return parsed
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": json = true
            case "--only":
                only = try value(argument)
                guard only == "graphql" || only == "http" else { throw PeerFailure("--only takes graphql or http") }
            case "--budget": budget = try number(argument)
            case "--runs": runs = max(1, try number(argument))
            case "--requests": requests = max(1, try number(argument))
            case "--parallel-requests": parallelRequests = max(1, try number(argument))
            case "--server":
                let text = try value(argument)
                guard let kind = BenchServer.Kind(rawValue: text) else {
                    throw PeerFailure("--server takes nio or loopback")
                }
                server = kind
            case "--url":
                let text = try value(argument)
                guard let parsed = URL(string: text), parsed.scheme == "http" else {
                    throw PeerFailure("--url takes an http URL")
                }
                url = parsed
            case "--corpora": corpora = URL(fileURLWithPath: try value(argument))
            case "--help", "-h": throw PeerFailure(usage)
            default: throw PeerFailure("unknown argument '\(argument)'\n\(usage)")
            }
        }
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "serve":
    do {
        if arguments.dropFirst().first == "download" {
            try await DownloadServer.serve(bytes: arguments.dropFirst(2).first.flatMap { Int($0) } ?? 200_000_000)
        } else {
            try await BenchServer.serve(BenchServer.Kind(rawValue: arguments.dropFirst().first ?? "nio") ?? .nio)
        }
    } catch {
        FileHandle.standardOutput.write(Data("error: \(error)\n".utf8))
    }
case "download":
    do {
        var benchmark = DownloadBenchmark(bytes: 200_000_000, runs: 3)
        var rest = arguments.dropFirst()
        let usage = "usage: peers download [--bytes N] [--runs N] [--clients provider,bare,curl]"
        while let argument = rest.popFirst(), let value = rest.popFirst() {
            switch (argument, Int(value)) {
            case ("--bytes", let number?) where number > 0: benchmark.bytes = number
            case ("--runs", let number?) where number > 0: benchmark.runs = number
            case ("--clients", _):
                let names = value.split(separator: ",").map(String.init)
                benchmark.clients = DownloadBenchmark.Client.allCases.filter { names.contains($0.argument) }
                guard benchmark.clients.count == names.count else { throw PeerFailure(usage) }
            default: throw PeerFailure(usage)
            }
        }
        guard !arguments.count.isMultiple(of: 2) else { throw PeerFailure(usage) }  // "download", then pairs
        print(try await benchmark.run())
    } catch {
        FileHandle.standardError.write(Data("peers: \(error)\n".utf8))
        exit(1)
    }
case "client":
    let line = await HTTPBenchmarks.runClient(Array(arguments.dropFirst()))
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
default:
    do {
        let options = try Options(arguments)
        let report = Report(json: options.json)
        report.header(options)
        if options.only != "http" {
            if FileManager.default.fileExists(atPath: options.corpora.path) {
                let graphQL = GraphQLBenchmarks(corpora: options.corpora, sampler: Sampler(budget: options.budget))
                try graphQL.run(report.graphQL)
            } else {
                let note = "peers: no corpus at \(options.corpora.path), so the GraphQL benchmarks are skipped;"
                    + " give its folder with --corpora PATH\n"
                FileHandle.standardError.write(Data(note.utf8))
            }
        }
        if options.only != "graphql" {
            let http = HTTPBenchmarks(
                server: options.server, url: options.url, runs: options.runs,
                sequentialRequests: options.requests, parallelRequests: options.parallelRequests
            )
            try await http.run(report.http)
        }
        report.footer()
    } catch {
        FileHandle.standardError.write(Data("peers: \(error)\n".utf8))
        exit(1)
    }
}
