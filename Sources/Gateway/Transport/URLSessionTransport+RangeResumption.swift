import Foundation

extension URLSessionTransport {
    /// How an exchange whose reader falls behind goes on without holding the body in memory:
    /// the transport ends the running exchange once `bodyBufferLimit` bytes wait unread and, when
    /// the reader has taken them all, asks for the rest of the same representation with
    /// `Range` and `If-Range` (RFC 9110 §14.2, §13.1.5), as a download resumes.
    ///
    /// FoundationNetworking on Linux cannot pause a transfer: `URLSessionTask.suspend()` takes the
    /// transfer off libcurl's multi handle, which drops it, and `resume()` sends the request again
    /// from its first byte; and a delegate callback that waits stops every session of the process,
    /// which share one serial queue. Ending the exchange and asking for the rest never waits.
    ///
    /// Only a response that can be continued that way gets one: a `GET` without a body, answered
    /// with `200` (or a `206` for one range) whose `Content-Length` is declared and which is not
    /// content-encoded, with a validator (a strong `ETag`, else `Last-Modified`) and
    /// `Accept-Ranges: bytes` (a `206` shows it by itself). Any other body is buffered as before.
    struct RangeResumption: Sendable {
        /// The representation's offset of the body's first byte (0 for a `200`).
        let base: Int64
        /// The representation's offset of the body's last byte.
        let last: Int64
        /// The representation's whole length, when the server said.
        let completeLength: Int64?
        /// Sent back in `If-Range`.
        let validator: DownloadValidator

        /// Where the exchange stands: its body arriving, ended at the buffer limit until the reader
        /// has drained it, or waiting for the head of the request for the rest.
        enum Phase: Sendable { case streaming, paused, resuming }
        var phase = Phase.streaming

        /// The plan for a response to `request`; `nil` when it cannot be continued with a range.
        init?(request: HTTPRequest, status: Int, headers: HTTPHeaders) {
            guard request.method == .get, (request.body?.length ?? 0) == 0,
                  let length = headers.declaredBodyLength, length > 0,
                  let validator = DownloadValidator(headers)
            else { return nil }
            switch status {
            case 200:
                let ranges = headers["Accept-Ranges"]?.lowercased().split(separator: ",") ?? []
                guard ranges.contains(where: { $0.trimmingCharacters(in: .whitespaces) == "bytes" }) else { return nil }
                base = 0
                last = Int64(length) - 1
                completeLength = Int64(length)
            case 206:
                guard let range = headers["Content-Range"].flatMap(ContentRange.init), range.length == Int64(length)
                else { return nil }
                base = range.first
                last = range.last
                completeLength = range.completeLength
            default:
                return nil
            }
            self.validator = validator
        }

        /// `request` asking for the body's bytes from `delivered` on, if the representation is
        /// still the one the body comes from (`If-Range`), unencoded.
        func request(_ request: HTTPRequest, from delivered: Int) -> HTTPRequest {
            var rest = request
            rest.headers["Range"] = "bytes=\(base + Int64(delivered))-\(last)"
            rest.headers["If-Range"] = validator.value
            rest.headers["Accept-Encoding"] = "identity"
            return rest
        }

        /// Why the answer to the request for the rest cannot continue the body; `nil` when it can
        /// (a `206` whose `Content-Range` starts at the byte asked for and ends where the body does).
        func refusal(status: Int, headers: HTTPHeaders, delivered: Int, request: HTTPRequest) -> GatewayError? {
            let first = base + Int64(delivered)
            let asked = "bytes \(first)-\(last)"
            let range = headers["Content-Range"].flatMap(ContentRange.init)
            let now = DownloadValidator(headers)
            let sameValidator = now.map { $0.field != validator.field || $0 == validator } ?? true
            if status == 206, let range, range.first == first, range.last == last, sameValidator,
               completeLength == nil || range.completeLength == nil || range.completeLength == completeLength {
                return nil
            }
            let answer: String
            if status == 206 {
                answer = "206 with " + (headers["Content-Range"].map { "Content-Range \($0)" } ?? "no Content-Range")
            } else {
                answer = HTTPStatus.describe(status)
            }
            let why = if let now, now.field == validator.field, now != validator {
                "the representation changed (\(validator.field) \(validator.value), now \(now.value))"
            } else if status == 200 {
                "the server ignored the range or the representation changed"
            } else {
                "the server did not send the rest of the same representation"
            }
            return GatewayError(
                .transport,
                "the body was cut off after \(delivered) bytes: the transport ended the exchange while its reader "
                    + "was behind and asked for the rest (\(asked)), but got \(answer): \(why)",
                fix: "retry: a download resumes, or starts over when the file changed; or read the body faster",
                request: request, underlying: URLError(.networkConnectionLost))
        }
    }
}
