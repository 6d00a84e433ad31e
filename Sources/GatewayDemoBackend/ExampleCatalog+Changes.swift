import Foundation

extension ExampleCatalog {
    /// Why a change was refused; the message reads well inside a GraphQL error.
    struct ChangeError: Error, Sendable {
        var message: String
    }

    /// Adds the track to the listener's likes (liking twice changes nothing).
    ///
    /// - Returns: how many tracks the listener likes afterwards.
    /// - Throws: `ChangeError` for an unknown track.
    mutating func like(trackID: String, at date: String) throws(ChangeError) -> Int {
        guard track(id: trackID) != nil else { throw ChangeError(message: "there is no track with id \(trackID)") }
        if !isLiked(trackID) { listener.likes.append(Entry(trackID: trackID, addedAt: date)) }
        return listener.likes.count
    }

    /// Removes the track from the listener's likes.
    ///
    /// - Returns: how many tracks the listener likes afterwards.
    /// - Throws: `ChangeError` for an unknown track.
    mutating func unlike(trackID: String) throws(ChangeError) -> Int {
        guard track(id: trackID) != nil else { throw ChangeError(message: "there is no track with id \(trackID)") }
        listener.likes.removeAll { $0.trackID == trackID }
        return listener.likes.count
    }

    /// Creates a playlist owned by the listener, with the given tracks in order.
    ///
    /// - Returns: the new playlist.
    /// - Throws: `ChangeError` for an empty name or an unknown track.
    mutating func createPlaylist(name: String, description: String?, isPublic: Bool, trackIDs: [String],
                                 at date: String) throws(ChangeError) -> Playlist {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw ChangeError(message: "a playlist needs a name that is not blank") }
        if let unknown = trackIDs.first(where: { track(id: $0) == nil }) {
            throw ChangeError(message: "there is no track with id \(unknown)")
        }
        var number = playlists.count + 1
        while playlist(id: "p\(number)") != nil { number += 1 }
        let playlist = Playlist(
            id: "p\(number)", name: trimmed, description: description,
            ownerID: listener.id, isPublic: isPublic, cover: nil,
            entries: trackIDs.map { Entry(trackID: $0, addedAt: date) })
        playlists.append(playlist)
        return playlist
    }

    /// Gives one of the listener's playlists a cover.
    ///
    /// - Returns: the changed playlist.
    /// - Throws: `ChangeError` for an unknown playlist or one the listener does not own.
    mutating func setCover(_ image: Image, playlistID: String) throws(ChangeError) -> Playlist {
        guard let index = playlists.firstIndex(where: { $0.id == playlistID }) else {
            throw ChangeError(message: "there is no playlist with id \(playlistID)")
        }
        guard playlists[index].ownerID == listener.id else {
            throw ChangeError(message: "only the owner of playlist \(playlistID) can change its cover")
        }
        playlists[index].cover = image
        return playlists[index]
    }
}
