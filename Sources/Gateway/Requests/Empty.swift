/// The value of an endpoint whose response has no body worth reading (204, or an empty 200).
///
/// `Endpoint<Empty>` accepts any body and ignores it.
public struct Empty: Codable, Sendable, Hashable {
    /// The one empty value.
    public init() {}

    /// Reads nothing.
    public init(from decoder: any Decoder) throws {}

    /// Writes an empty JSON object.
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: EmptyKey.self)
    }

    private struct EmptyKey: CodingKey {
        var stringValue: String { "" }
        var intValue: Int? { nil }
        init?(stringValue: String) { return nil }
        init?(intValue: Int) { return nil }
    }
}
