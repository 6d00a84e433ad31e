/// A usage error: the command line is not what the verb takes. Exit status 2.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The arguments of one verb, consumed option by option.
///
/// Options are `--name value` or `--name=value`; flags are `--name`; everything else, and
/// everything after `--`, is positional. Any option left unconsumed is a usage error.
public struct Arguments: Sendable {
    private var items: [String]
    private var positionalOnlyFrom: Int?

    public init(_ items: [String]) {
        if let dashes = items.firstIndex(of: "--") {
            self.items = Array(items[..<dashes]) + Array(items[(dashes + 1)...])
            positionalOnlyFrom = dashes
        } else {
            self.items = items
        }
    }

    private func isOptionIndex(_ index: Int) -> Bool {
        if let limit = positionalOnlyFrom, index >= limit { return false }
        return items[index].hasPrefix("--") && items[index].count > 2
    }

    /// Removes and returns whether `--name` is present (also accepts `short`, such as `-i`).
    public mutating func flag(_ name: String, short: String? = nil) -> Bool {
        var found = false
        var index = 0
        while index < items.count {
            if (isOptionIndex(index) && items[index] == "--\(name)") || (short != nil && items[index] == short) {
                items.remove(at: index)
                if let limit = positionalOnlyFrom { positionalOnlyFrom = limit - 1 }
                found = true
            } else {
                index += 1
            }
        }
        return found
    }

    /// Removes and returns every value of `--name VALUE` / `--name=VALUE`, in order.
    public mutating func options(_ name: String, short: String? = nil) throws(UsageError) -> [String] {
        var values: [String] = []
        var index = 0
        while index < items.count {
            let item = items[index]
            if isOptionIndex(index), item.hasPrefix("--\(name)=") {
                values.append(String(item.dropFirst(name.count + 3)))
                removeItems(at: index, count: 1)
            } else if (isOptionIndex(index) && item == "--\(name)") || (short != nil && item == short) {
                guard index + 1 < items.count else { throw UsageError("--\(name) needs a value") }
                values.append(items[index + 1])
                removeItems(at: index, count: 2)
            } else {
                index += 1
            }
        }
        return values
    }

    /// Removes and returns the value of `--name`, or `nil`; given twice is a usage error.
    public mutating func option(_ name: String, short: String? = nil) throws(UsageError) -> String? {
        let values = try options(name, short: short)
        guard values.count <= 1 else { throw UsageError("--\(name) was given \(values.count) times; give it once") }
        return values.first
    }

    /// The value of `--name` as one of `choices`.
    public mutating func choice(_ name: String, _ choices: [String]) throws(UsageError) -> String? {
        guard let value = try option(name) else { return nil }
        guard choices.contains(value) else {
            throw UsageError("--\(name) must be one of \(choices.joined(separator: ", ")); got '\(value)'")
        }
        return value
    }

    /// The value of `--name` as a number.
    public mutating func number(_ name: String) throws(UsageError) -> Double? {
        guard let value = try option(name) else { return nil }
        guard let number = Double(value), number.isFinite, number >= 0 else {
            throw UsageError("--\(name) takes a non-negative number; got '\(value)'")
        }
        return number
    }

    /// Removes and returns the positional arguments; any option still present is a usage error.
    public mutating func positionals() throws(UsageError) -> [String] {
        for index in items.indices where isOptionIndex(index) {
            throw UsageError("unknown option '\(items[index])'")
        }
        let values = items
        items = []
        return values
    }

    private mutating func removeItems(at index: Int, count: Int) {
        items.removeSubrange(index..<(index + count))
        if let limit = positionalOnlyFrom { positionalOnlyFrom = limit - count }
    }
}
