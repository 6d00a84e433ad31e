import Foundation

/// How the URL query and form encoders write arrays, booleans and dates.
public struct URLEncodingOptions: Sendable {
    /// How an array is written.
    public enum ArrayEncoding: Sendable, Hashable {
        /// `a[]=1&a[]=2` (Rails, PHP).
        case brackets
        /// `a=1&a=2`.
        case repeated
        /// `a[0]=1&a[1]=2`.
        case indexed
    }

    /// How a `Bool` is written.
    public enum BoolEncoding: Sendable, Hashable {
        /// `1` and `0`.
        case numeric
        /// `true` and `false`.
        case literal
    }

    /// How a `Date` is written.
    public enum DateEncoding: Sendable {
        /// Seconds since 1970-01-01T00:00:00Z: `1700000000`, or `1700000000.5` with a fraction.
        case secondsSince1970
        /// Milliseconds since 1970-01-01T00:00:00Z: `1700000000500`.
        case millisecondsSince1970
        /// ISO 8601 in UTC, whole seconds: `2023-11-14T22:13:20Z`.
        case iso8601
        /// Your own formatter; it must give the same text for the same date.
        case custom(@Sendable (Date) -> String)
    }

    /// How arrays are written; `.brackets` unless set.
    public var arrays: ArrayEncoding
    /// How booleans are written; `.numeric` unless set.
    public var bools: BoolEncoding
    /// How dates are written; `.iso8601` unless set.
    public var dates: DateEncoding

    /// Creates options; the defaults write `a[]=1`, `1`/`0` and ISO 8601 dates.
    public init(arrays: ArrayEncoding = .brackets, bools: BoolEncoding = .numeric, dates: DateEncoding = .iso8601) {
        self.arrays = arrays
        self.bools = bools
        self.dates = dates
    }

    func text(for bool: Bool) -> String {
        switch bools {
        case .numeric: bool ? "1" : "0"
        case .literal: bool ? "true" : "false"
        }
    }

    func text(for date: Date) -> String {
        switch dates {
        case .secondsSince1970: Self.number(date.timeIntervalSince1970)
        case .millisecondsSince1970: Self.number((date.timeIntervalSince1970 * 1000).rounded())
        case .iso8601: Date.ISO8601FormatStyle().format(date)
        case .custom(let format): format(date)
        }
    }

    /// A finite double as the shortest text that reads back the same, without `.0` when whole.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 9.0e15 { return String(Int64(value)) }
        return String(value)
    }
}
