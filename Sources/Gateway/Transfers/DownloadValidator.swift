import Foundation

/// What identifies the representation a partial file holds, sent back in `If-Range` when the
/// download resumes (RFC 9110 §13.1.5): a strong `ETag`, or else `Last-Modified`.
///
/// A weak `ETag` (`W/"…"`) cannot be used in `If-Range`, so a response that has only that has no
/// validator and its partial file is not resumed.
struct DownloadValidator: Sendable, Hashable {
    /// The header field it came from: `ETag` or `Last-Modified`.
    let field: String
    /// The field's value, sent as it came.
    let value: String

    /// The response's strong `ETag`, else its `Last-Modified`; `nil` when it has neither.
    init?(_ headers: HTTPHeaders) {
        if let etag = headers["ETag"]?.trimmingCharacters(in: .whitespaces), etag.hasPrefix("\"") {
            field = "ETag"
            value = etag
        } else if let date = headers["Last-Modified"]?.trimmingCharacters(in: .whitespaces), !date.isEmpty {
            field = "Last-Modified"
            value = date
        } else {
            return nil
        }
    }

    private init(field: String, value: String) {
        self.field = field
        self.value = value
    }

    /// The validator as it is kept beside a partial file: one line, `Field: value`.
    var line: String { "\(field): \(value)\n" }

    /// The validator kept in `text` (see `line`); `nil` for anything else.
    init?(line text: String) {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.contains("\n"), let colon = line.firstIndex(of: ":") else { return nil }
        let field = String(line[..<colon])
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard field == "ETag" || field == "Last-Modified", !value.isEmpty else { return nil }
        self.init(field: field, value: value)
    }
}
