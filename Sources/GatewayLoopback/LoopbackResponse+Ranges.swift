import Foundation

extension LoopbackResponse {
    /// A file served as a server that supports range requests serves it (RFC 9110 §14): the
    /// whole file with `200`, or, for `Range: bytes=FIRST-` or `bytes=FIRST-LAST` whose
    /// `If-Range` (if any) matches `etag` or `lastModified`, that part with `206` and its
    /// `Content-Range`; a range starting past the end gets `416` with `Content-Range: bytes */LENGTH`.
    ///
    /// ```swift
    /// let file = Data(repeating: 7, count: 1_000)
    /// let server = try LoopbackServer { request in
    ///     LoopbackResponse.file(file, for: request, etag: "\"v1\"")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - request: the request to answer.
    ///   - etag: the `ETag` sent with every answer (quoted, as on the wire), if any.
    ///   - lastModified: the `Last-Modified` sent with every answer, if any.
    ///   - honoursRanges: `false` plays a server that ignores `Range` and always sends the whole file.
    public static func file(
        _ data: Data, for request: LoopbackRequest, etag: String? = nil, lastModified: String? = nil,
        honoursRanges: Bool = true
    ) -> LoopbackResponse {
        var headers: LoopbackHeaders = ["Content-Type": "application/octet-stream"]
        if let etag { headers["ETag"] = etag }
        if let lastModified { headers["Last-Modified"] = lastModified }
        guard honoursRanges else { return LoopbackResponse(status: 200, headers: headers, body: data) }
        headers["Accept-Ranges"] = "bytes"
        guard let text = request.headers["Range"], let range = byteRange(text),
              ifRangeMatches(request.headers["If-Range"], etag: etag, lastModified: lastModified)
        else {
            return LoopbackResponse(status: 200, headers: headers, body: data)
        }
        let (first, last) = range
        guard first < data.count else {
            headers["Content-Range"] = "bytes */\(data.count)"
            return LoopbackResponse(status: 416, headers: headers)
        }
        let end = min(last ?? (data.count - 1), data.count - 1)
        headers["Content-Range"] = "bytes \(first)-\(end)/\(data.count)"
        let start = data.startIndex + first
        let part = data.subdata(in: start..<(data.startIndex + end + 1))
        return LoopbackResponse(status: 206, headers: headers, body: part)
    }

    /// `bytes=FIRST-` or `bytes=FIRST-LAST`; `nil` for anything else (suffix ranges, several ranges).
    private static func byteRange(_ text: String) -> (Int, Int?)? {
        let spec = text.trimmingCharacters(in: .whitespaces)
        guard spec.hasPrefix("bytes="), !spec.contains(",") else { return nil }
        let bounds = spec.dropFirst("bytes=".count)
            .split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int(bounds[0]), first >= 0 else { return nil }
        if bounds[1].isEmpty { return (first, nil) }
        guard let last = Int(bounds[1]), last >= first else { return nil }
        return (first, last)
    }

    /// Whether the range applies: no `If-Range`, or one equal to the current validator (a weak
    /// `ETag` never matches).
    private static func ifRangeMatches(_ condition: String?, etag: String?, lastModified: String?) -> Bool {
        guard let condition else { return true }
        if condition.hasPrefix("W/") { return false }
        if condition.hasPrefix("\"") { return condition == etag }
        return condition == lastModified
    }
}
