import Foundation
import Gateway
import GatewaySQLite
import GraphQLLanguage

/// `gateway request METHOD URL`: one REST call through the Provider, the body to standard output.
struct RequestCommand: Command {
    let name = "request"
    let summary = "Send one HTTP request through the Gateway pipeline and print the response body"
    let help = """
        Usage: gateway request METHOD URL [OPTIONS]

        Sends one request through a Gateway Provider (the same pipeline as the library) and writes the
        response body to standard output.

        Options:
          --query name=value        Add a query item (repeatable; added after any in URL).
          --header 'Name: value'    Add a request header (repeatable).
          --json '<json>'           Send this JSON text as the body, byte for byte
                                    (Content-Type: application/json). It must be valid JSON.
          --form name=value         Add a field to an application/x-www-form-urlencoded body (repeatable).
          --multipart name=value    Add a text field to a multipart/form-data body (repeatable).
          --file name=@path         Add a file part to a multipart/form-data body (repeatable).
          --bearer TOKEN            Send 'Authorization: Bearer TOKEN'.
          --include, -i             Print the status line and response headers before the body.
          --timeout SECONDS         Give up on an attempt when no data arrives for this long (default 60).
          --deadline SECONDS        End the whole call (every attempt, redirect and retry wait) after
                                    this long. Default: 30, or with --timeout T and --retries N,
                                    T × (N + 1) + 5 when that is longer. A retry that could not start
                                    before the deadline is not made.
          --priority LEVEL          The request's priority in the queue: low, medium (default), high,
                                    veryHigh or blocker.
          --retries N               Send again up to N times (0–4, default 0) after 408, 429, 500, 502,
                                    503, 504 or a lost connection, with jittered exponential back-off
                                    from 0.5 s or the server's Retry-After. Only idempotent methods
                                    (GET, HEAD, PUT, DELETE, OPTIONS, TRACE) are retried.
          --verbose, -v             Print each attempt as a cURL command line, and the request's
                                    metrics, to standard error. Secrets (Authorization, cookies,
                                    API keys, token query items and JSON fields) show as <redacted>.
          --output FILE, -o FILE    Write a 2xx response's body to FILE instead of standard output,
                                    through a partial file next to it (.FILE.gateway-partial) moved
                                    into place once complete; with --retries, a dropped connection
                                    resumes with a range request. A progress bar goes to standard
                                    error when it is a terminal (in colour unless NO_COLOR is set).
                                    Another status writes nothing to FILE: its body goes to standard
                                    output. The response cache is not used.
          --continue                With --output, resume the partial file an interrupted call left
                                    (Range with If-Range); without it, a download starts over.
        \(CacheFlags.help)

        Only GET responses are cached, by the HTTP caching rules (Cache-Control, Expires, ETag,
        Last-Modified, Vary); a successful POST, PUT, PATCH or DELETE removes its URL from the cache.
        Only one kind of body may be given: --json, --form, or --multipart/--file.

        Exit status:
          0  the response status was 2xx
          1  any other status (a one-line summary goes to standard error)
          2  a usage error (bad flags, bad URL, invalid --json, unreadable --file)
          3  a transport error, a malformed response, or a timeout (the deadline included)
        """

    func run(_ arguments: inout Arguments, output: Output) async throws -> Int32 {
        let request = try RequestOptions(parsing: &arguments, output: output)
        let cache: CacheFlags.Made?
        do {
            cache = try request.cache.makeCache()
        } catch let error as GatewayError {
            output.error("gateway request: --cache: \(error.message)" + (error.fix.map { "\nFix: \($0)" } ?? ""))
            return 2
        }
        let provider = Provider(baseURL: request.baseURL) { config in
            config.timeout = request.timeout ?? config.timeout
            config.deadline = request.deadline
            config.retryPolicy = .retries(request.retries)
            if let cache { config.cache = cache.cache }
            if request.verbose {
                config.observers = [CURLLogger(logsResponseHeaders: true) { output.error($0) }]
            }
        }
        if let file = request.outputFile {
            return await Self.download(provider, request, to: file, output: output)
        }
        var status: Int32 = 0
        do {
            for try await response in Self.responses(provider, request) {
                let http = response.httpResponse
                if request.include { output.writeOut(Data(RequestCommand.head(of: http).utf8)) }
                output.writeOut(http.body)
                status = 0
                if !http.isSuccess {
                    output.error("gateway request: HTTP \(HTTPStatus.describe(http.status)) from \(request.display)")
                    status = 1
                }
            }
        } catch let error as GatewayError {
            output.error("gateway request: \(error)")
            switch error.kind {
            case .invalidRequest, .encoding: status = 2
            case .cacheMiss, .cache: status = 1
            default: status = 3
            }
        }
        // The store counts hits in batches: write the last ones before the process ends.
        try? await cache?.flush()
        return status
    }

    /// The response, or with `--cache-policy cache-and-network` the cached one and then the fresh one.
    private static func responses(_ provider: Provider, _ request: RequestOptions)
        -> AsyncThrowingStream<Response<Data>, any Error>
    {
        if request.cache.path != nil, request.cache.policy == .cacheAndNetwork {
            return cachedThenFresh { policy in try await provider.send(request.endpoint.cachePolicy(policy)) }
        }
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    continuation.yield(try await provider.send(request.endpoint))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// `HTTP/1.1 200 OK` and the header lines, then a blank line.
    static func head(of response: HTTPResponse) -> String {
        var text = "HTTP/1.1 \(response.status) \(HTTPStatus.reasonPhrase(response.status) ?? "")\r\n"
        for field in response.headers { text += "\(field.name): \(field.value)\r\n" }
        return text + "\r\n"
    }
}
