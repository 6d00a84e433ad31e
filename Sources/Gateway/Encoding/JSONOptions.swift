import Foundation

/// How JSON bodies are written: the settings of a `JSONEncoder`, as a `Sendable` value.
public struct JSONEncodingOptions: Sendable {
    /// How dates are written.
    public enum DateEncoding: Sendable {
        /// Foundation's default: seconds since 2001-01-01 as a number.
        case deferredToDate
        /// Seconds since 1970 as a number.
        case secondsSince1970
        /// Milliseconds since 1970 as a number.
        case millisecondsSince1970
        /// ISO 8601 text in UTC.
        case iso8601
        /// Your own formatter, written as a JSON string.
        case custom(@Sendable (Date) -> String)
    }

    /// How property names become JSON keys.
    public enum KeyEncoding: Sendable, Hashable {
        /// As declared.
        case useDefaultKeys
        /// `userID` → `user_id`.
        case convertToSnakeCase
    }

    /// Whether object keys are written in sorted order (deterministic bytes); on by default.
    public var sortedKeys: Bool
    /// How dates are written; `.deferredToDate` unless set.
    public var dates: DateEncoding
    /// How keys are written; `.useDefaultKeys` unless set.
    public var keys: KeyEncoding
    /// Whether `/` is written as `\/`; off by default.
    public var escapesSlashes: Bool

    /// Creates options.
    public init(sortedKeys: Bool = true, dates: DateEncoding = .deferredToDate, keys: KeyEncoding = .useDefaultKeys,
                escapesSlashes: Bool = false) {
        self.sortedKeys = sortedKeys
        self.dates = dates
        self.keys = keys
        self.escapesSlashes = escapesSlashes
    }

    /// A new `JSONEncoder` with these settings.
    public func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        var formatting: JSONEncoder.OutputFormatting = []
        if sortedKeys { formatting.insert(.sortedKeys) }
        if !escapesSlashes { formatting.insert(.withoutEscapingSlashes) }
        encoder.outputFormatting = formatting
        switch dates {
        case .deferredToDate: encoder.dateEncodingStrategy = .deferredToDate
        case .secondsSince1970: encoder.dateEncodingStrategy = .secondsSince1970
        case .millisecondsSince1970: encoder.dateEncodingStrategy = .millisecondsSince1970
        case .iso8601: encoder.dateEncodingStrategy = .iso8601
        case .custom(let format):
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(format(date))
            }
        }
        switch keys {
        case .useDefaultKeys: encoder.keyEncodingStrategy = .useDefaultKeys
        case .convertToSnakeCase: encoder.keyEncodingStrategy = .convertToSnakeCase
        }
        return encoder
    }
}

/// How JSON bodies are read: the settings of a `JSONDecoder`, as a `Sendable` value.
public struct JSONDecodingOptions: Sendable {
    /// How dates are read.
    public enum DateDecoding: Sendable {
        /// Foundation's default: seconds since 2001-01-01 as a number.
        case deferredToDate
        /// Seconds since 1970 as a number.
        case secondsSince1970
        /// Milliseconds since 1970 as a number.
        case millisecondsSince1970
        /// ISO 8601 text.
        case iso8601
        /// Your own parser of a JSON string; return `nil` for text it does not accept.
        case custom(@Sendable (String) -> Date?)
    }

    /// How JSON keys become property names.
    public enum KeyDecoding: Sendable, Hashable {
        /// As written.
        case useDefaultKeys
        /// `user_id` → `userId`.
        case convertFromSnakeCase
    }

    /// How dates are read; `.deferredToDate` unless set.
    public var dates: DateDecoding
    /// How keys are read; `.useDefaultKeys` unless set.
    public var keys: KeyDecoding

    /// Creates options.
    public init(dates: DateDecoding = .deferredToDate, keys: KeyDecoding = .useDefaultKeys) {
        self.dates = dates
        self.keys = keys
    }

    /// A new `JSONDecoder` with these settings.
    public func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        switch dates {
        case .deferredToDate: decoder.dateDecodingStrategy = .deferredToDate
        case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
        case .millisecondsSince1970: decoder.dateDecodingStrategy = .millisecondsSince1970
        case .iso8601: decoder.dateDecodingStrategy = .iso8601
        case .custom(let parse):
            decoder.dateDecodingStrategy = .custom { decoder in
                let container = try decoder.singleValueContainer()
                let text = try container.decode(String.self)
                guard let date = parse(text) else {
                    throw DecodingError.dataCorruptedError(
                        in: container, debugDescription: "not a date this decoder accepts")
                }
                return date
            }
        }
        switch keys {
        case .useDefaultKeys: decoder.keyDecodingStrategy = .useDefaultKeys
        case .convertFromSnakeCase: decoder.keyDecodingStrategy = .convertFromSnakeCase
        }
        return decoder
    }
}
