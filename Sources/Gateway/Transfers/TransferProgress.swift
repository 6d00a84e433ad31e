/// How far a download or an upload has come: the bytes so far and, when known, the total.
///
/// For a download, `completedBytes` counts the bytes its file holds: after a resumption, the
/// resumed part included, so that it reaches `expectedBytes` when the file is complete; when the
/// server answers a resumption with the whole file, it goes back to 0. For an upload, it counts
/// the body's bytes the transport has sent; a retry sends the body again, from 0.
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
    /// The bytes received (a download) or sent (an upload) so far.
    public var completedBytes: Int64
    /// The total: for a download when the server declared it (`Content-Length` or
    /// `Content-Range`), for an upload the body's length.
    public var expectedBytes: Int64?

    /// Creates a progress value.
    public init(completedBytes: Int64, expectedBytes: Int64?) {
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
    }

    /// The fraction done, from 0 to 1; `nil` when the total is not known.
    public var fractionCompleted: Double? {
        guard let expectedBytes, expectedBytes > 0 else { return expectedBytes == 0 ? 1 : nil }
        return min(1, Double(completedBytes) / Double(expectedBytes))
    }

    /// `1048576 of 2097152 bytes`, or `1048576 bytes` without a known total.
    public var description: String {
        expectedBytes.map { "\(completedBytes) of \($0) bytes" } ?? "\(completedBytes) bytes"
    }
}
