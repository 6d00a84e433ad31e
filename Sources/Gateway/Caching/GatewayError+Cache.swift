extension GatewayError.Kind {
    /// The response cache failed: its database could not be opened, read or written.
    public static let cache = GatewayError.Kind(rawValue: "cache")
}
