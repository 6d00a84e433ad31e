import Foundation
import Gateway

/// A `CacheSelection` as an SQL `WHERE` clause over `entries`, with the values to bind.
struct SQLiteSelection {
    private enum Value {
        case text(String?)
        case number(Double)
        case integer(Int)
    }

    private var conditions: [String] = []
    private var values: [Value] = []
    /// True when the selection can match no row (a key prefix that is not hex).
    private(set) var matchesNothing = false

    init(_ selection: CacheSelection) {
        if let key = selection.key { add("key = ?", .text(key.hex)) }
        if let prefix = selection.keyPrefix {
            if prefix.utf8.allSatisfy({ SQLiteSelection.isHexDigit($0) }) && prefix.utf8.count <= 64 {
                add("substr(key, 1, ?) = ?", .integer(prefix.utf8.count), .text(prefix))
            } else {
                matchesNothing = true
            }
        }
        if let operation = selection.operation { add("name = ?", .text(operation)) }
        if let tag = selection.tag {
            add("EXISTS (SELECT 1 FROM json_each(entries.tags) WHERE json_each.value = ?)", .text(tag))
        }
        if let partition = selection.partition { add("partition_subject IS ?", .text(partition.subject)) }
        if let expiredAt = selection.expiredAt {
            add("expires_at IS NOT NULL AND expires_at <= ?", .number(expiredAt.timeIntervalSince1970))
        }
    }

    /// ` WHERE ...`, or nothing for every row.
    var whereClause: String {
        conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    }

    /// Binds the values from parameter 1 on.
    func bind(to statement: SQLiteStatement) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .text(let text): statement.bind(index, text)
            case .number(let number): statement.bind(index, number)
            case .integer(let integer): statement.bind(index, integer)
            }
        }
    }

    private mutating func add(_ condition: String, _ bound: Value...) {
        conditions.append(condition)
        values.append(contentsOf: bound)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
