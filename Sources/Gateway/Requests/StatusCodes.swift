/// The status codes an endpoint accepts as success; any other status is a `.status` error.
public struct StatusCodes: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// The accepted codes as ranges.
    public let ranges: [ClosedRange<Int>]

    /// Accepts the codes in `ranges`.
    public init(_ ranges: [ClosedRange<Int>]) { self.ranges = ranges }

    /// Accepts the codes in `range`, such as `200..<300`.
    public init(_ range: Range<Int>) {
        ranges = range.isEmpty ? [] : [range.lowerBound...(range.upperBound - 1)]
    }

    /// Accepts exactly the listed codes.
    public init(arrayLiteral codes: Int...) { ranges = codes.map { $0...$0 } }

    /// 200 to 299.
    public static let success = StatusCodes([200...299])

    /// Whether `status` is accepted.
    public func contains(_ status: Int) -> Bool { ranges.contains { $0.contains(status) } }

    /// `2xx`, `200`, `200–204` or several joined with `or`.
    public var description: String {
        guard !ranges.isEmpty else { return "no status" }
        return ranges.map { range in
            if range.lowerBound == range.upperBound { return "\(range.lowerBound)" }
            if range.lowerBound % 100 == 0, range.upperBound == range.lowerBound + 99 {
                return "\(range.lowerBound / 100)xx"
            }
            return "\(range.lowerBound)–\(range.upperBound)"
        }.joined(separator: " or ")
    }
}
