import Foundation

/// The parts of a `multipart/form-data` body: text fields and files, in order.
///
/// Send it with the `.multipart` encoder:
/// ```swift
/// var form = MultipartForm()
/// form.append(.text("title", "Holiday"))
/// form.append(.file("photo", url: photoURL, contentType: "image/jpeg"))
/// let upload = Endpoint<Empty>.post("photos", body: form, encoder: .multipart)
/// ```
/// A form is a description only: file parts are read when the request is encoded, in chunks.
public struct MultipartForm: Sendable, Encodable {
    /// One part of the form.
    public struct Part: Sendable {
        /// Where a part's bytes come from.
        public enum Content: Sendable {
            /// Bytes in memory.
            case data(Data)
            /// A file read in chunks when the request is encoded.
            case file(URL)
        }

        /// The form field name.
        public var name: String
        /// The file name sent in `Content-Disposition`; `nil` for a plain field.
        public var filename: String?
        /// The part's `Content-Type`; `nil` sends none (a text field).
        public var contentType: String?
        /// The part's bytes.
        public var content: Content

        /// Creates a part.
        public init(name: String, filename: String? = nil, contentType: String? = nil, content: Content) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.content = content
        }

        /// A text field, sent as UTF-8 with no `Content-Type`.
        public static func text(_ name: String, _ value: String) -> Part {
            Part(name: name, content: .data(Data(value.utf8)))
        }

        /// A file part from bytes in memory.
        ///
        /// - Parameters:
        ///   - name: the form field name.
        ///   - data: the file's bytes.
        ///   - filename: the file name to send.
        ///   - contentType: the media type; `application/octet-stream` unless given.
        public static func data(_ name: String, _ data: Data, filename: String,
                                contentType: String = "application/octet-stream") -> Part {
            Part(name: name, filename: filename, contentType: contentType, content: .data(data))
        }

        /// A file part read from disk when the request is encoded, in chunks.
        ///
        /// - Parameters:
        ///   - name: the form field name.
        ///   - url: a `file:` URL of a regular file.
        ///   - filename: the file name to send; the URL's last path component unless given.
        ///   - contentType: the media type; guessed from the file extension unless given.
        public static func file(_ name: String, url: URL, filename: String? = nil, contentType: String? = nil) -> Part {
            Part(name: name, filename: filename ?? url.lastPathComponent,
                 contentType: contentType ?? MultipartForm.mediaType(forExtension: url.pathExtension),
                 content: .file(url))
        }
    }

    /// The parts, in the order they are sent.
    public var parts: [Part]

    /// Creates a form from parts.
    public init(_ parts: [Part] = []) { self.parts = parts }

    /// Appends a part.
    public mutating func append(_ part: Part) { parts.append(part) }

    /// A form is written only by the `.multipart` encoder; any other encoder gets a clear error.
    public func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(self, EncodingError.Context(
            codingPath: encoder.codingPath,
            debugDescription: "a MultipartForm can only be sent with the .multipart encoder"))
    }

    /// A media type for common file extensions; `application/octet-stream` for the rest.
    static func mediaType(forExtension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "txt": "text/plain"
        case "html", "htm": "text/html"
        case "css": "text/css"
        case "csv": "text/csv"
        case "json": "application/json"
        case "xml": "application/xml"
        case "pdf": "application/pdf"
        case "zip": "application/zip"
        case "gz": "application/gzip"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "svg": "image/svg+xml"
        case "heic": "image/heic"
        case "mp3": "audio/mpeg"
        case "m4a": "audio/mp4"
        case "wav": "audio/wav"
        case "mp4": "video/mp4"
        case "mov": "video/quicktime"
        default: "application/octet-stream"
        }
    }
}
