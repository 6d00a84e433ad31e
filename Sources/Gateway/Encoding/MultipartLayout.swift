import Foundation

/// A multipart body planned before it is written: each part's header bytes and content size,
/// and the total length, so the encoder can choose memory or a temporary file up front.
struct MultipartLayout {
    struct Section {
        var header: Data
        var content: MultipartForm.Part.Content
        var length: Int64
        var name: String
    }

    let sections: [Section]
    let closing: Data
    /// The exact number of bytes `write` produces.
    let length: Int64

    private static let lineBreak = Data("\r\n".utf8)

    /// Plans the body of `form` with `boundary`.
    ///
    /// - Throws: `GatewayError` of kind `.encoding` for a content type with a line break or a file
    ///   part that is missing, not a regular file, or unreadable.
    init(form: MultipartForm, boundary: String) throws {
        var sections: [Section] = []
        var total: Int64 = 0
        for part in form.parts {
            var header = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let filename = part.filename { header += "; filename=\"\(Self.quoted(filename))\"" }
            header += "\r\n"
            if let contentType = part.contentType {
                guard !contentType.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                    throw GatewayError(.encoding, "the content type of multipart part \"\(Self.quoted(part.name))\" "
                                       + "contains a line break", fix: "pass a plain media type such as image/png")
                }
                header += "Content-Type: \(contentType)\r\n"
            }
            header += "\r\n"
            let length: Int64
            switch part.content {
            case .data(let data): length = Int64(data.count)
            case .file(let url): length = try Self.fileSize(url, part: part.name)
            }
            let headerData = Data(header.utf8)
            sections.append(Section(header: headerData, content: part.content, length: length, name: part.name))
            total += Int64(headerData.count) + length + Int64(Self.lineBreak.count)
        }
        closing = Data("--\(boundary)--\r\n".utf8)
        self.sections = sections
        self.length = total + Int64(closing.count)
    }

    /// Writes the body to `sink`, reading file parts `chunkSize` bytes at a time.
    ///
    /// - Throws: `GatewayError` of kind `.encoding` when a file cannot be read or its size changed
    ///   since the body was planned; errors of the sink as they are.
    func write(to sink: inout some ByteSink, chunkSize: Int) throws {
        for section in sections {
            try sink.write(section.header)
            switch section.content {
            case .data(let data):
                try sink.write(data)
            case .file(let url):
                try Self.copy(url, expected: section.length, part: section.name, to: &sink, chunkSize: chunkSize)
            }
            try sink.write(Self.lineBreak)
        }
        try sink.write(closing)
    }

    private static func copy(_ url: URL, expected: Int64, part: String, to sink: inout some ByteSink,
                             chunkSize: Int) throws {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw unreadable(url, part: part, underlying: error)
        }
        defer { try? handle.close() }
        var copied: Int64 = 0
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: chunkSize)
            } catch {
                throw unreadable(url, part: part, underlying: error)
            }
            guard let chunk, !chunk.isEmpty else { break }
            copied += Int64(chunk.count)
            guard copied <= expected else { break }
            try sink.write(chunk)
        }
        guard copied == expected else {
            throw GatewayError(.encoding, "the file of multipart part \"\(quoted(part))\" changed size while it was "
                               + "being read (\(url.path))", fix: "send a file that is not being written to")
        }
    }

    private static func fileSize(_ url: URL, part: String) throws -> Int64 {
        guard url.isFileURL else {
            throw GatewayError(.encoding, "multipart part \"\(quoted(part))\" refers to \(Redaction.redactedURL(url)), "
                               + "which is not a file URL", fix: "pass a file: URL, or the bytes with .data(…)")
        }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw unreadable(url, part: part, underlying: error)
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
            throw GatewayError(.encoding, "multipart part \"\(quoted(part))\" refers to \(url.path), which is not a "
                               + "regular file", fix: "pass the URL of a regular file")
        }
        if let size = attributes[.size] as? NSNumber { return size.int64Value }
        if let size = attributes[.size] as? Int64 { return size }
        if let size = attributes[.size] as? UInt64 { return Int64(clamping: size) }
        if let size = attributes[.size] as? Int { return Int64(size) }
        throw unreadable(url, part: part, underlying: nil)
    }

    private static func unreadable(_ url: URL, part: String, underlying: (any Error)?) -> GatewayError {
        GatewayError(.encoding, "the file of multipart part \"\(quoted(part))\" cannot be read: \(url.path)",
                     fix: "check that the file exists and is readable", underlying: underlying)
    }

    /// A name or file name for a quoted `Content-Disposition` parameter, escaped as browsers do:
    /// `"` as `%22`, CR as `%0D`, LF as `%0A`.
    static func quoted(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// Where a multipart body is written: memory or a file.
protocol ByteSink {
    mutating func write(_ data: Data) throws
}

struct MemorySink: ByteSink {
    var data = Data()
    mutating func write(_ bytes: Data) throws { data.append(bytes) }
}

struct FileSink: ByteSink {
    let handle: FileHandle
    mutating func write(_ bytes: Data) throws { try handle.write(contentsOf: bytes) }
}
