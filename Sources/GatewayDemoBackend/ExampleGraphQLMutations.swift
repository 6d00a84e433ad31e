import Foundation
import Gateway
import GraphQLLanguage

/// The example backend's `Mutation` root: each field changes the catalog under its lock and
/// answers from the catalog as it is afterwards. Every mutation needs a signed-in listener.
///
/// `uploadPlaylistCover` takes its `image` as a file of a GraphQL multipart request: the endpoint
/// puts `{"upload": "<part name>"}` in the variable and the file in `uploads`; the file must be a
/// PNG image (its size is read from the PNG header).
struct ExampleGraphQLMutations: Sendable {
    let state: Locked<ExampleCatalog>
    let viewer: String?
    /// The files of a multipart request, by part name.
    let uploads: [String: ExampleMultipart.Part]
    /// The backend's URL, for the cover images it serves.
    let baseURL: String

    typealias Failure = ExampleGraphQLFieldError

    /// The `Mutation` root.
    var root: ExampleGraphQLObject {
        ExampleGraphQLObject("Mutation") { field, arguments throws(Failure) in
            guard let viewer, viewer == state.value.listener.id else { throw .unauthenticated("Mutation.\(field)") }
            let now = Self.timestamp(Date())
            switch field {
            case "likeTrack":
                let input = arguments["input"]?.objectValue ?? [:]
                let trackID = input["trackID"]?.stringValue ?? ""
                let (count, catalog) = try change { catalog throws(ExampleCatalog.ChangeError) in
                    try catalog.like(trackID: trackID, at: now)
                }
                return payload(trackID: trackID, likedCount: count, catalog: catalog)
            case "unlikeTrack":
                let trackID = arguments["trackID"]?.stringValue ?? ""
                let (count, catalog) = try change { catalog throws(ExampleCatalog.ChangeError) in
                    try catalog.unlike(trackID: trackID)
                }
                return payload(trackID: trackID, likedCount: count, catalog: catalog)
            case "createPlaylist":
                let input = arguments["input"]?.objectValue ?? [:]
                let (made, catalog) = try change { catalog throws(ExampleCatalog.ChangeError) in
                    try catalog.createPlaylist(
                        name: input["name"]?.stringValue ?? "", description: input["description"]?.stringValue,
                        isPublic: input["isPublic"]?.boolValue ?? false,
                        trackIDs: input["trackIDs"]?.arrayValue?.compactMap(\.stringValue) ?? [], at: now)
                }
                return ExampleGraphQLResolvers(catalog: catalog, viewer: viewer).playlist(made)
            case "uploadPlaylistCover":
                let playlistID = arguments["playlistID"]?.stringValue ?? ""
                let image = try cover(arguments["image"], playlistID: playlistID)
                let (changed, catalog) = try change { catalog throws(ExampleCatalog.ChangeError) in
                    try catalog.setCover(image, playlistID: playlistID)
                }
                return ExampleGraphQLResolvers(catalog: catalog, viewer: viewer).playlist(changed)
            default:
                throw .unknown(field, on: "Mutation")
            }
        }
    }

    /// Runs `body` on the catalog under its lock.
    ///
    /// - Returns: what `body` returned and the catalog afterwards.
    private func change<T>(_ body: (inout ExampleCatalog) throws(ExampleCatalog.ChangeError) -> T)
        throws(Failure) -> (T, ExampleCatalog) {
        let outcome = state.withLock { catalog -> Result<(T, ExampleCatalog), ExampleCatalog.ChangeError> in
            do throws(ExampleCatalog.ChangeError) {
                let value = try body(&catalog)
                return .success((value, catalog))
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw Failure(error.message, code: "BAD_USER_INPUT")
        }
    }

    private func payload(trackID: String, likedCount: Int, catalog: ExampleCatalog) -> ExampleGraphQLValue {
        let resolvers = ExampleGraphQLResolvers(catalog: catalog, viewer: viewer)
        let track = catalog.track(id: trackID).map(resolvers.track) ?? .null
        return .object(ExampleGraphQLObject("LikeTrackPayload") { field, _ throws(Failure) in
            switch field {
            case "track": return track
            case "likedCount": return .int(likedCount)
            default: throw .unknown(field, on: "LikeTrackPayload")
            }
        })
    }

    /// The cover image from the uploaded file the `image` variable names.
    private func cover(_ value: JSONValue?, playlistID: String) throws(Failure) -> ExampleCatalog.Image {
        guard let part = value?["upload"]?.stringValue, let file = uploads[part] else {
            throw Failure("image must be a file sent with the GraphQL multipart request specification "
                          + "(an operations part, a map part and the file)", code: "BAD_USER_INPUT")
        }
        guard let size = Self.pngSize(file.body) else {
            throw Failure("the cover must be a PNG image; the file \(file.filename ?? "sent") is not one",
                          code: "BAD_USER_INPUT")
        }
        let url = baseURL + "media/covers/\(playlistID).png"
        return ExampleCatalog.Image(url: url, width: size.width, height: size.height)
    }

    /// The width and height in a PNG file's header, or `nil` when it is not a PNG.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count == 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8)
        else { return nil }
        func number(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        let width = number(16), height = number(20)
        guard width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// `2026-11-21T12:00:00Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
