import Foundation

extension HTTPRequest {
    /// An auth replay's request (step 5): this attempt's URL, body and the header fields its
    /// encoders set (a multipart boundary, say), with the other header fields from `headers`,
    /// as the auth stage left them this time. The body goes again byte for byte.
    ///
    /// - Parameters:
    ///   - headers: the prepared request's header fields after this replay's step 4.
    ///   - oldHeaders: the prepared request's header fields this attempt was encoded from.
    func replayed(with headers: HTTPHeaders, encodedFrom oldHeaders: HTTPHeaders) -> HTTPRequest {
        let fromEncoders = Set(self.headers.map { $0.name.lowercased() }.filter { name in
            oldHeaders.values(for: name) != self.headers.values(for: name)
        })
        var replayed = headers
        for name in fromEncoders { replayed.remove(name) }
        for field in self.headers where fromEncoders.contains(field.name.lowercased()) {
            replayed.add(name: field.name, value: field.value)
        }
        var request = self
        request.headers = replayed
        return request
    }

    /// Deletes a body file an encoder created for this request (never one that `other` still uses).
    func removeTemporaryBody(unlessUsedBy other: HTTPRequest? = nil) {
        guard case .file(let url, _, true) = body else { return }
        if let other, case .file(let otherURL, _, _) = other.body, otherURL == url { return }
        try? FileManager.default.removeItem(at: url)
    }
}
