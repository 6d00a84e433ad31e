import Foundation
import Gateway
import GraphQLLanguage

/// The options of `gateway request`, checked and turned into an endpoint.
struct RequestOptions {
    var baseURL: URL
    var endpoint: Endpoint<Data>
    var include: Bool
    var timeout: Duration?
    /// The whole call's deadline: `--deadline`, or the default `CallDeadline.resolve` gives.
    var deadline: Duration
    /// The URL as shown in messages (sensitive query items redacted).
    var display: String
    /// `--priority`: the request's priority in the queue.
    var priority: RequestPriority
    /// `--retries N`: the retry policy's retries (0 unless given).
    var retries: Int
    /// `--verbose`: log the redacted cURL line and the metrics to standard error.
    var verbose: Bool
    /// `--cache PATH` and `--cache-policy`.
    var cache: CacheFlags
    /// `--output FILE`: where a 2xx response's body is written instead of standard output.
    var outputFile: URL?
    /// `--continue`: resume the partial file an interrupted `--output` call left.
    var continues: Bool

    init(parsing arguments: inout Arguments, output: Output) throws(UsageError) {
        let queries = try arguments.options("query")
        let headerLines = try arguments.options("header", short: "-H")
        let json = try arguments.option("json")
        let forms = try arguments.options("form")
        let multiparts = try arguments.options("multipart")
        let files = try arguments.options("file")
        let bearer = try arguments.option("bearer")
        include = arguments.flag("include", short: "-i")
        verbose = arguments.flag("verbose", short: "-v")
        let priorityNames = RequestPriority.allCases.map(\.description)
        priority = try arguments.choice("priority", priorityNames).flatMap(RequestPriority.init(name:)) ?? .medium
        retries = try Self.retries(arguments.option("retries"))
        timeout = try arguments.number("timeout").map { Duration.milliseconds(Int64(($0 * 1000).rounded())) }
        deadline = try CallDeadline.resolve(arguments.number("deadline"), timeout: timeout, retries: retries)
        cache = try CacheFlags(parsing: &arguments)
        outputFile = try Self.outputFile(arguments.option("output", short: "-o"), output: output)
        continues = arguments.flag("continue")
        if continues, outputFile == nil { throw UsageError("--continue resumes an --output FILE; give --output too") }
        let positionals = try arguments.positionals()
        guard positionals.count == 2 else {
            throw UsageError("expected METHOD and URL, got \(positionals.count) argument(s)")
        }
        let method = HTTPMethod(rawValue: positionals[0])
        guard !method.rawValue.isEmpty, method.rawValue.allSatisfy({ $0.isLetter || $0 == "-" }) else {
            throw UsageError("'\(positionals[0])' is not an HTTP method; use GET, POST, PUT, PATCH, DELETE, ...")
        }
        guard let url = URL(string: positionals[1]), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else {
            throw UsageError("'\(positionals[1])' is not an absolute http or https URL (for example http://127.0.0.1:8080/get)")
        }
        display = Redaction.redactedURL(url)

        var query = components.queryItems ?? []
        for item in queries { query.append(try Self.queryItem(item)) }
        let path = components.percentEncodedPath
        components.percentEncodedPath = "/"
        components.query = nil
        components.fragment = nil
        guard let base = components.url else { throw UsageError("'\(positionals[1])' is not a usable URL") }
        baseURL = base

        var headers = HTTPHeaders()
        for line in headerLines {
            guard let colon = line.firstIndex(of: ":") else {
                throw UsageError("--header '\(line)' must look like 'Name: value'")
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw UsageError("--header '\(line)' has no name before the colon") }
            headers.add(name: name, value: value)
        }
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }

        let bodyKinds = [json != nil, !forms.isEmpty, !(multiparts.isEmpty && files.isEmpty)].filter { $0 }.count
        guard bodyKinds <= 1 else { throw UsageError("give one kind of body: --json, --form, or --multipart/--file") }

        var endpoint = Endpoint<Data>.request(method, String(path.drop { $0 == "/" }), query: query, headers: headers)
        if let json {
            do {
                _ = try JSONValue(parsing: json)
            } catch {
                throw UsageError("--json is not valid JSON: \(error)")
            }
            endpoint = Endpoint<Data>.request(method, endpoint.path, query: query, headers: headers,
                                              body: json, encoder: .raw(contentType: "application/json"))
        } else if !forms.isEmpty {
            let pairs = try forms.map { (item: String) throws(UsageError) -> URLQueryItem in try Self.queryItem(item, flag: "form") }
            endpoint = Endpoint<Data>.request(method, endpoint.path, query: query, headers: headers,
                                              body: FormFields(pairs), encoder: .form(arrays: .repeated))
        } else if !(multiparts.isEmpty && files.isEmpty) {
            var form = MultipartForm()
            for item in multiparts {
                let pair = try Self.queryItem(item, flag: "multipart")
                form.append(.text(pair.name, pair.value ?? ""))
            }
            for item in files {
                guard let equals = item.firstIndex(of: "="), item[item.index(after: equals)...].hasPrefix("@") else {
                    throw UsageError("--file '\(item)' must look like name=@path")
                }
                let name = String(item[..<equals])
                let path = String(item[item.index(equals, offsetBy: 2)...])
                let fileURL = output.url(forPath: path)
                guard FileManager.default.isReadableFile(atPath: fileURL.path) else {
                    throw UsageError("--file \(name): cannot read '\(path)'")
                }
                form.append(.file(name, url: fileURL))
            }
            endpoint = Endpoint<Data>.request(method, endpoint.path, query: query, headers: headers,
                                              body: form, encoder: .multipart)
        }
        endpoint.acceptableStatusCodes = StatusCodes([100...599])
        endpoint.decoding = .data
        endpoint.requiresAuthentication = false
        endpoint.priority = priority
        self.endpoint = endpoint
    }

    /// `--output FILE`: the file, in a folder that exists.
    static func outputFile(_ path: String?, output: Output) throws(UsageError) -> URL? {
        guard let path else { return nil }
        guard !path.isEmpty, !path.hasSuffix("/") else { throw UsageError("--output takes a file path; got '\(path)'") }
        let file = output.url(forPath: path)
        var isFolder: ObjCBool = false
        let folder = file.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw UsageError("--output \(path): the folder \(folder.path) does not exist; create it first")
        }
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), isFolder.boolValue {
            throw UsageError("--output \(path) is a folder; give a file path")
        }
        return file
    }

    /// `--retries N`: a whole number from 0 to 4 (a request makes at most 5 attempts).
    static func retries(_ text: String?) throws(UsageError) -> Int {
        guard let text else { return 0 }
        guard let count = Int(text), count >= 0 else {
            throw UsageError("--retries takes a whole number of retries from 0 to 4; got '\(text)'")
        }
        guard count <= RetryPolicy.attemptLimit - 1 else {
            throw UsageError("--retries \(count) is too many: a request makes at most \(RetryPolicy.attemptLimit) attempts, so give 0 to \(RetryPolicy.attemptLimit - 1)")
        }
        return count
    }

    static func queryItem(_ text: String, flag: String = "query") throws(UsageError) -> URLQueryItem {
        guard let equals = text.firstIndex(of: "=") else {
            throw UsageError("--\(flag) '\(text)' must look like name=value")
        }
        let name = String(text[..<equals])
        guard !name.isEmpty else { throw UsageError("--\(flag) '\(text)' has no name before '='") }
        return URLQueryItem(name: name, value: String(text[text.index(after: equals)...]))
    }
}

/// Form fields in the order given; a repeated name becomes a repeated field.
struct FormFields: Encodable, Sendable {
    var pairs: [URLQueryItem]
    init(_ pairs: [URLQueryItem]) { self.pairs = pairs }

    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Name.self)
        var grouped: [String: [String]] = [:]
        var order: [String] = []
        for pair in pairs {
            if grouped[pair.name] == nil { order.append(pair.name) }
            grouped[pair.name, default: []].append(pair.value ?? "")
        }
        for name in order {
            let values = grouped[name] ?? []
            if values.count == 1 {
                try container.encode(values[0], forKey: Name(stringValue: name))
            } else {
                try container.encode(values, forKey: Name(stringValue: name))
            }
        }
    }
}
