import Foundation

/// Writes a `multipart/form-data` body (RFC 7578) and sets its `Content-Type` with the boundary.
///
/// The parameters are a `MultipartForm`, or any keyed `Encodable`, whose fields become text parts
/// (named and ordered as the query encoder would write them). A body up to `streamingThreshold`
/// bytes is built in memory; a larger one is written to a temporary file (mode 0600) in
/// `chunkSize` pieces, a file part never being read whole, and sent as
/// `HTTPRequest.Body.file(…, removeAfterSending: true)`, which the pipeline deletes when the
/// attempt ends. With a fixed boundary the bytes are the same for the same form.
public struct MultipartParameterEncoder: ParameterEncoder {
    /// The default threshold above which the body goes to a temporary file: 1 MiB.
    public static let defaultStreamingThreshold = 1024 * 1024
    /// The default size of each chunk read from a file part: 64 KiB.
    public static let defaultChunkSize = 64 * 1024

    /// Makes the boundary for each encoding.
    public var boundary: MultipartBoundary
    /// Bodies larger than this many bytes are streamed to a temporary file.
    public var streamingThreshold: Int
    /// How many bytes of a file part are read at a time.
    public var chunkSize: Int
    /// Where temporary bodies are written; the system's temporary directory when `nil`.
    public var temporaryDirectory: URL?
    /// How arrays, booleans and dates of an `Encodable` (not a `MultipartForm`) are written.
    public var options: URLEncodingOptions

    /// Creates a multipart encoder.
    public init(
        boundary: MultipartBoundary = .random,
        streamingThreshold: Int = MultipartParameterEncoder.defaultStreamingThreshold,
        chunkSize: Int = MultipartParameterEncoder.defaultChunkSize,
        temporaryDirectory: URL? = nil,
        options: URLEncodingOptions = URLEncodingOptions()
    ) {
        self.boundary = boundary
        self.streamingThreshold = streamingThreshold
        self.chunkSize = chunkSize
        self.temporaryDirectory = temporaryDirectory
        self.options = options
    }

    /// Sets the multipart body and `Content-Type: multipart/form-data; boundary=…`.
    ///
    /// - Throws: `GatewayError` of kind `.encoding` for a bad boundary, a part header with a line
    ///   break, a file part that cannot be read or changed size while read, a temporary file that
    ///   cannot be written, or a request that already has a body.
    public func encode(_ parameters: any Encodable & Sendable, into request: inout HTTPRequest,
                       context: ParameterEncodingContext) throws {
        let form: MultipartForm
        if let given = parameters as? MultipartForm {
            form = given
        } else {
            let pairs = try URLEncodedPairs.pairs(for: parameters, options: options, encoder: "multipart")
            form = MultipartForm(pairs.map { MultipartForm.Part.text($0.name, $0.value) })
        }
        let boundary = try MultipartBoundary.validated(self.boundary.make())
        let layout = try MultipartLayout(form: form, boundary: boundary)
        let contentType = "multipart/form-data; boundary=" + MultipartBoundary.headerValue(boundary)
        try request.requireNoBody(encoder: "multipart")
        let body: HTTPRequest.Body
        if layout.length > Int64(max(0, streamingThreshold)) {
            body = try writeTemporaryFile(layout)
        } else {
            var sink = MemorySink()
            try layout.write(to: &sink, chunkSize: max(1, chunkSize))
            body = .data(sink.data)
        }
        try request.setEncodedBody(body, contentType: contentType, replacingContentType: true, encoder: "multipart")
    }

    private func writeTemporaryFile(_ layout: MultipartLayout) throws -> HTTPRequest.Body {
        let directory = temporaryDirectory ?? FileManager.default.temporaryDirectory
        let url = directory.appendingPathComponent("gateway-multipart-\(UUID().uuidString).tmp")
        guard FileManager.default.createFile(atPath: url.path, contents: nil,
                                             attributes: [.posixPermissions: 0o600]) else {
            throw GatewayError(
                .encoding, "the multipart encoder could not create a temporary file in \(directory.path)",
                fix: "check that the temporary directory exists and is writable")
        }
        do {
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            var sink = FileSink(handle: handle)
            try layout.write(to: &sink, chunkSize: max(1, chunkSize))
            try handle.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: url)
            if let gateway = error as? GatewayError { throw gateway }
            throw GatewayError(.encoding, "the multipart encoder could not write its temporary file",
                               fix: "check the free space and permissions of \(directory.path)", underlying: error)
        }
        return .file(url, length: layout.length, removeAfterSending: true)
    }
}

extension ParameterEncoder where Self == MultipartParameterEncoder {
    /// A `multipart/form-data` body with a random boundary, streamed to a file above 1 MiB.
    public static var multipart: MultipartParameterEncoder { MultipartParameterEncoder() }

    /// A `multipart/form-data` body with the given settings.
    ///
    /// - Parameters:
    ///   - boundary: how the boundary is made; `.fixed("…")` gives the same bytes every time.
    ///   - streamingThreshold: bodies larger than this are written to a temporary file.
    ///   - temporaryDirectory: where that file goes; the system's temporary directory by default.
    public static func multipart(
        boundary: MultipartBoundary = .random,
        streamingThreshold: Int = MultipartParameterEncoder.defaultStreamingThreshold,
        temporaryDirectory: URL? = nil
    ) -> MultipartParameterEncoder {
        MultipartParameterEncoder(boundary: boundary, streamingThreshold: streamingThreshold,
                                  temporaryDirectory: temporaryDirectory)
    }
}

/// Makes the boundary line of a multipart body; injectable so tests get the same bytes each time.
public struct MultipartBoundary: Sendable {
    let make: @Sendable () -> String

    /// A boundary made by `make` for each encoding; it must be 1–70 characters of letters,
    /// digits and `'()+_,-./:=?`.
    public init(_ make: @escaping @Sendable () -> String) { self.make = make }

    /// `gateway-` followed by 32 random hexadecimal digits.
    public static var random: MultipartBoundary {
        MultipartBoundary {
            var generator = SystemRandomNumberGenerator()
            let high = generator.next() as UInt64, low = generator.next() as UInt64
            let hex = String(high, radix: 16), lowHex = String(low, radix: 16)
            return "gateway-" + String(repeating: "0", count: 16 - hex.count) + hex
                + String(repeating: "0", count: 16 - lowHex.count) + lowHex
        }
    }

    /// Always the same boundary.
    public static func fixed(_ boundary: String) -> MultipartBoundary { MultipartBoundary { boundary } }

    static func validated(_ boundary: String) throws -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'()+_,-./:=?")
        guard (1...70).contains(boundary.count), boundary.allSatisfy({ allowed.contains($0) }) else {
            throw GatewayError(
                .encoding, "the multipart boundary must be 1 to 70 characters of letters, digits and '()+_,-./:=?",
                fix: "use MultipartBoundary.random or a plain alphanumeric boundary")
        }
        return boundary
    }

    /// The boundary as a `Content-Type` parameter value, quoted when it is not an HTTP token.
    static func headerValue(_ boundary: String) -> String {
        let token = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'+-._")
        return boundary.allSatisfy { token.contains($0) } ? boundary : "\"\(boundary)\""
    }

    /// The `boundary` parameter of a multipart `Content-Type`, unquoted (`headerValue`'s
    /// inverse); `nil` when there is none or it is empty.
    package static func parameter(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }
}
