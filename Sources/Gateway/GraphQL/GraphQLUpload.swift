import Foundation

/// A file sent with a GraphQL operation by the GraphQL multipart request specification
/// (https://github.com/jaydenseric/graphql-multipart-request-spec): the variable it fills holds
/// `null` in the `operations` part, the `map` part says which file part replaces it.
///
/// ```swift
/// let cover = GraphQLUpload.file(imageURL, contentType: "image/png")
/// let uploaded = try await provider.fetch(operations["UploadPlaylistCover"], variables: ["playlistID": "p1"],
///                                         uploads: ["image": cover], as: JSONValue.self)
/// ```
/// `JSONValue`, the data as plain JSON, needs `import GraphQLLanguage`.
///
/// A generated operation with an `Upload` variable holds the file as a `GraphQLUpload`
/// property and sends it the same way (see `GraphQLOperationType.uploads`).
public struct GraphQLUpload: Sendable {
    /// The file's bytes, in memory or on disk.
    public var content: MultipartForm.Part.Content
    /// The file name sent in `Content-Disposition`.
    public var filename: String
    /// The media type of the file part.
    public var contentType: String

    /// Creates an upload.
    public init(content: MultipartForm.Part.Content, filename: String, contentType: String) {
        self.content = content
        self.filename = filename
        self.contentType = contentType
    }

    /// An upload of bytes in memory.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - filename: the file name to send.
    ///   - contentType: the media type; `application/octet-stream` unless given.
    public static func data(_ data: Data, filename: String, contentType: String = "application/octet-stream")
        -> GraphQLUpload
    {
        GraphQLUpload(content: .data(data), filename: filename, contentType: contentType)
    }

    /// An upload of a file on disk, read in chunks when the request is encoded.
    ///
    /// - Parameters:
    ///   - url: a `file:` URL of a regular file.
    ///   - filename: the file name to send; the URL's last path component unless given.
    ///   - contentType: the media type; guessed from the extension unless given.
    public static func file(_ url: URL, filename: String? = nil, contentType: String? = nil) -> GraphQLUpload {
        let part = MultipartForm.Part.file("file", url: url, filename: filename, contentType: contentType)
        return GraphQLUpload(content: .file(url), filename: part.filename ?? url.lastPathComponent,
                             contentType: part.contentType ?? "application/octet-stream")
    }
}

extension GraphQLUpload: Encodable {
    /// Writes `null`: the placeholder the multipart request spec puts in the variables where a
    /// file goes. The file itself travels in a part of its own, named by the operation's
    /// `uploads`.
    ///
    /// ```swift
    /// let cover = GraphQLUpload.data(Data([0x89, 0x50]), filename: "cover.png", contentType: "image/png")
    /// let variables = try GraphQLVariables(encoding: ["image": cover])
    /// print(variables["image"] == .null)   // true
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}
