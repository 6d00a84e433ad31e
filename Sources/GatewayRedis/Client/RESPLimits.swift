/// The bounds a client holds a server's replies to, so that a broken or hostile server cannot
/// make it allocate without limit or recurse without end.
public struct RESPLimits: Sendable, Hashable {
    /// The most bytes one reply (with everything nested in it) may take: 64 MiB by default.
    public var maximumReplyBytes: Int
    /// The most elements one array may announce: a million by default.
    public var maximumArrayCount: Int
    /// How deeply arrays may nest: 8 by default (the store's replies nest 2 deep).
    public var maximumDepth: Int
    /// The longest line (a simple string, an error, a length): 64 KiB by default.
    public var maximumLineBytes: Int

    /// Creates limits.
    public init(maximumReplyBytes: Int = 64 << 20, maximumArrayCount: Int = 1 << 20, maximumDepth: Int = 8,
                maximumLineBytes: Int = 64 << 10) {
        self.maximumReplyBytes = maximumReplyBytes
        self.maximumArrayCount = maximumArrayCount
        self.maximumDepth = maximumDepth
        self.maximumLineBytes = maximumLineBytes
    }
}
