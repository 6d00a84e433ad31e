import Foundation

/// Reads `multipart/form-data` bodies (RFC 7578) for the example backend's uploads.
enum ExampleMultipart {
    /// One part of the body.
    struct Part: Sendable {
        /// The `name` of its `Content-Disposition`.
        var name: String
        /// The `filename`, for a file.
        var filename: String?
        var contentType: String?
        var body: Data
    }

    /// Why a body could not be read.
    struct Failure: Error, Sendable {
        var message: String
    }

    /// The parts of `body`, in order.
    ///
    /// - Parameters:
    ///   - body: the request body.
    ///   - contentType: the request's `Content-Type`, which names the boundary.
    /// - Throws: `Failure` when there is no boundary or the body does not follow it.
    static func parts(of body: Data, contentType: String) throws(Failure) -> [Part] {
        guard let boundary = parameter("boundary", in: contentType), !boundary.isEmpty else {
            throw Failure(message: "the multipart Content-Type has no boundary parameter")
        }
        let delimiter = Data("--\(boundary)".utf8)
        let crlf = Data("\r\n".utf8)
        let blankLine = Data("\r\n\r\n".utf8)
        guard var cursor = body.range(of: delimiter)?.upperBound else {
            throw Failure(message: "the body never starts a part with the boundary")
        }
        var parts: [Part] = []
        while true {
            if body[cursor...].starts(with: Data("--".utf8)) { return parts }
            guard body[cursor...].starts(with: crlf),
                  let headersEnd = body.range(of: blankLine, in: cursor..<body.endIndex),
                  let next = body.range(of: crlf + delimiter, in: headersEnd.upperBound..<body.endIndex)
            else {
                throw Failure(message: "part \(parts.count + 1) is cut short: the body ends before its boundary")
            }
            let headerText = String(decoding: body[(cursor + 2)..<headersEnd.lowerBound], as: UTF8.self)
            var disposition = "", contentType: String?
            for line in headerText.components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                switch line[..<colon].lowercased() {
                case "content-disposition": disposition = value
                case "content-type": contentType = value
                default: break
                }
            }
            guard let name = parameter("name", in: disposition) else {
                throw Failure(message: "part \(parts.count + 1) has no Content-Disposition name")
            }
            parts.append(Part(name: name, filename: parameter("filename", in: disposition), contentType: contentType,
                              body: Data(body[headersEnd.upperBound..<next.lowerBound])))
            cursor = next.upperBound
        }
    }

    /// The value of `key=value` or `key="value"` among a header's `;`-separated parameters.
    static func parameter(_ key: String, in header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals].lowercased() == key else { continue }
            var value = String(trimmed[trimmed.index(after: equals)...])
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }
}
