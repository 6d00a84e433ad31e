import Foundation

/// An observer that logs every attempt as a `curl` command line, redacted by default.
///
/// For each attempt it writes a comment naming the request and the `curl` line (method, URL,
/// headers, body); for each response the status, size and time (and, when asked, the response
/// headers); when the request ends, how it ended and its `RequestMetrics`. Secrets never
/// appear unless `showingSecrets` is set: header values, query items and body fields that
/// `rules` names print as `<redacted>`, and bodies that cannot be redacted field by field (text,
/// multipart, binary, files, more than 64 KiB) are described instead of shown.
///
/// ```swift
/// let provider = Provider(baseURL: api) { config in
///     config.observers = [CURLLogger(rules: .standard.adding(headers: ["X-Session"])) { line in
///         logger.debug("\(line)")
///     }]
/// }
/// ```
/// Each event is written with one call, so lines of concurrent requests never interleave within
/// an event.
public struct CURLLogger: Observer {
    /// What is hidden.
    public let rules: RedactionRules
    /// Whether secrets are shown: an explicit opt-in for local debugging only.
    public let showingSecrets: Bool
    /// Whether response header fields are logged (redacted like request headers).
    public let logsResponseHeaders: Bool
    /// Whether the metrics are logged when a request ends.
    public let logsMetrics: Bool
    private let write: @Sendable (String) -> Void

    /// Creates a logger.
    ///
    /// - Parameters:
    ///   - rules: what is hidden; `.standard` by default.
    ///   - showingSecrets: show every value unredacted. Never in production.
    ///   - logsResponseHeaders: also log response header fields.
    ///   - logsMetrics: log the metrics when a request ends.
    ///   - write: receives each event's text (one or more lines, no trailing newline); standard
    ///     output by default.
    public init(
        rules: RedactionRules = .standard, showingSecrets: Bool = false, logsResponseHeaders: Bool = false,
        logsMetrics: Bool = true, write: @escaping @Sendable (String) -> Void = { print($0) }
    ) {
        self.rules = rules
        self.showingSecrets = showingSecrets
        self.logsResponseHeaders = logsResponseHeaders
        self.logsMetrics = logsMetrics
        self.write = write
    }

    /// Logs the attempt as a `curl` line.
    public func requestSent(_ request: HTTPRequest, context: RequestContext) {
        write("# \(context)\n" + command(for: request))
    }

    /// Logs the status, size and time (and the header fields when asked).
    public func responseReceived(_ response: HTTPResponse, for request: HTTPRequest, context: RequestContext) {
        var text = "# \(context.id) ← HTTP \(HTTPStatus.describe(response.status)), \(response.body.count) bytes"
            + " in \(response.transportMetrics.duration.millisecondsText)"
        if logsResponseHeaders {
            for field in showingSecrets ? Array(response.headers) : rules.redactedHeaders(response.headers) {
                text += "\n# < \(field.name): \(field.value)"
            }
        }
        write(text)
    }

    /// Logs the delay before another attempt.
    public func requestRetried(after delay: Duration?, context: RequestContext) {
        write("# \(context.id) retrying after attempt \(context.attempt)" + (delay.map { " in \($0.millisecondsText)" } ?? ""))
    }

    /// Logs how the request ended, with its metrics.
    public func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {
        let ending = switch outcome {
        case .success(let response): "finished: HTTP \(response.status)"
        case .failure(let error): "failed: \(error)"
        case .cancelled: "cancelled"
        }
        write("# \(context.id) \(context.name) \(ending)" + (logsMetrics ? "\n# \(context.id) metrics: \(metrics)" : ""))
    }

    /// The `curl` command line for `request`, redacted unless `showingSecrets`.
    public func command(for request: HTTPRequest) -> String {
        var parts = ["curl"]
        if request.method != .get || request.body != nil { parts += ["-X", request.method.rawValue] }
        parts.append(Self.quoted(showingSecrets ? request.url.absoluteString : rules.redactedURL(request.url)))
        for field in showingSecrets ? Array(request.headers) : rules.redactedHeaders(request.headers) {
            parts += ["-H", Self.quoted("\(field.name): \(field.value)")]
        }
        if let body = request.body {
            parts += ["--data-binary", Self.quoted(bodyText(body, contentType: request.headers["Content-Type"]))]
        }
        return parts.joined(separator: " ")
    }

    private func bodyText(_ body: HTTPRequest.Body, contentType: String?) -> String {
        switch body {
        case .file(_, let length, _):
            return "<\(length) bytes from a file, not shown>"
        case .data(let data):
            if showingSecrets, data.count <= RedactionRules.maxShownBodyBytes, let text = String(data: data, encoding: .utf8) {
                return text
            }
            if let text = rules.redactedBody(data, contentType: contentType) { return text }
            let type = contentType.map { " of \($0.split(separator: ";").first.map(String.init) ?? $0)" } ?? ""
            return "<\(data.count) bytes\(type), not shown>"
        }
    }

    /// `text` in single quotes for a POSIX shell.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
