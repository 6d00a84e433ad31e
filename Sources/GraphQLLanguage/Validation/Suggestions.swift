/// graphql-js's "Did you mean ...?" machinery: `suggestionList`, `didYouMean` and `naturalCompare`.
enum Suggestions {
    /// The options close enough to `input` to suggest, best first (graphql-js `suggestionList`).
    ///
    /// An option is close when its Damerau–Levenshtein distance to `input`, ignoring case, is at most
    /// 40% of the input's length plus one; a difference only in case counts as one edit. Ties are
    /// ordered by ``naturalCompare(_:_:)``.
    static func list(_ input: String, _ options: [String]) -> [String] {
        var measure = LexicalDistance(input)
        let threshold = input.unicodeScalars.count * 2 / 5 + 1
        var found: [(option: String, distance: Int)] = []
        var seen = Set<String>()
        for option in options where seen.insert(option).inserted {
            if let distance = measure.distance(to: option, threshold: threshold) {
                found.append((option, distance))
            }
        }
        found.sort { first, second in
            if first.distance != second.distance { return first.distance < second.distance }
            return naturalCompare(first.option, second.option) < 0
        }
        return found.map(\.option)
    }

    /// ` Did you mean "A", "B", or "C"?` for up to five suggestions, or the empty string for none.
    /// - Parameters:
    ///   - suggestions: The suggestions, best first.
    ///   - subMessage: Words placed before the list, such as `the enum value`.
    static func didYouMean(_ suggestions: [String], subMessage: String? = nil) -> String {
        guard !suggestions.isEmpty else { return "" }
        var message = " Did you mean "
        if let subMessage { message += subMessage + " " }
        let quoted = suggestions.prefix(5).map { "\"\($0)\"" }
        switch quoted.count {
        case 1: return message + quoted[0] + "?"
        case 2: return message + quoted[0] + " or " + quoted[1] + "?"
        default: return message + quoted.dropLast().joined(separator: ", ") + ", or " + (quoted.last ?? "") + "?"
        }
    }

    /// Sorts as TimSort does an array shorter than its minimum run (V8 and CPython alike): the
    /// leading run, reversed when strictly descending, then binary insertion of the rest. Longer
    /// arrays are sorted the same way, which differs from TimSort only for inconsistent comparators.
    static func timSorted<Element>(_ elements: [Element], by isLess: (Element, Element) -> Bool) -> [Element] {
        var items = elements
        let count = items.count
        guard count > 1 else { return items }
        var runEnd = 2
        if isLess(items[1], items[0]) {
            while runEnd < count, isLess(items[runEnd], items[runEnd - 1]) { runEnd += 1 }
            items[0..<runEnd].reverse()
        } else {
            while runEnd < count, !isLess(items[runEnd], items[runEnd - 1]) { runEnd += 1 }
        }
        for start in runEnd..<count {
            let pivot = items[start]
            var low = 0
            var high = start
            while low < high {
                let middle = low + (high - low) / 2
                if isLess(pivot, items[middle]) { high = middle } else { low = middle + 1 }
            }
            items.remove(at: start)
            items.insert(pivot, at: low)
        }
        return items
    }

    /// Compares two strings so that runs of digits compare by value (graphql-js `naturalCompare`).
    /// - Returns: A negative number, zero or a positive number.
    static func naturalCompare(_ first: String, _ second: String) -> Int {
        let a = Array(first.utf16)
        let b = Array(second.utf16)
        var aIndex = 0
        var bIndex = 0
        func isDigit(_ code: UInt16) -> Bool { code >= 48 && code <= 57 }
        while aIndex < a.count && bIndex < b.count {
            var aChar = a[aIndex]
            var bChar = b[bIndex]
            if isDigit(aChar) && isDigit(bChar) {
                var aNumber = 0.0
                repeat {
                    aIndex += 1
                    aNumber = aNumber * 10 + Double(aChar - 48)
                    aChar = aIndex < a.count ? a[aIndex] : 0
                } while isDigit(aChar) && aNumber > 0
                var bNumber = 0.0
                repeat {
                    bIndex += 1
                    bNumber = bNumber * 10 + Double(bChar - 48)
                    bChar = bIndex < b.count ? b[bIndex] : 0
                } while isDigit(bChar) && bNumber > 0
                if aNumber < bNumber { return -1 }
                if aNumber > bNumber { return 1 }
            } else {
                if aChar < bChar { return -1 }
                if aChar > bChar { return 1 }
                aIndex += 1
                bIndex += 1
            }
        }
        return a.count - b.count
    }
}

/// The Damerau–Levenshtein distance from one input to many options, reusing its rows.
struct LexicalDistance {
    private let input: String
    private let inputLowercased: String
    private let inputCodes: [UInt32]
    private var rows: [[Int]]

    init(_ input: String) {
        self.input = input
        inputLowercased = input.lowercased()
        inputCodes = inputLowercased.unicodeScalars.map(\.value)
        rows = Array(repeating: Array(repeating: 0, count: inputCodes.count + 1), count: 3)
    }

    /// The distance to `option`, or `nil` when it exceeds `threshold`.
    mutating func distance(to option: String, threshold: Int) -> Int? {
        if input == option { return 0 }
        let optionLowercased = option.lowercased()
        if inputLowercased == optionLowercased { return 1 }
        var a = optionLowercased.unicodeScalars.map(\.value)
        var b = inputCodes
        if a.count < b.count { swap(&a, &b) }
        let aLength = a.count
        let bLength = b.count
        if aLength - bLength > threshold { return nil }
        if rows[0].count < bLength + 1 {
            rows = Array(repeating: Array(repeating: 0, count: bLength + 1), count: 3)
        }
        for column in 0...bLength { rows[0][column] = column }
        for i in 1...max(1, aLength) where aLength > 0 {
            let up = (i - 1) % 3
            let current = i % 3
            rows[current][0] = i
            var smallest = i
            if bLength > 0 {
                for j in 1...bLength {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var cell = min(rows[up][j] + 1, rows[current][j - 1] + 1, rows[up][j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                        cell = min(cell, rows[(i - 2) % 3][j - 2] + 1)
                    }
                    if cell < smallest { smallest = cell }
                    rows[current][j] = cell
                }
            }
            if smallest > threshold { return nil }
        }
        let distance = rows[aLength % 3][bLength]
        return distance <= threshold ? distance : nil
    }
}
