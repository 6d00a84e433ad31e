/// Near matches for a mistyped name: "did you mean …?".
package enum NameSuggestions {
    /// The names within a small edit distance of `input` (case ignored, a case difference costs
    /// one edit), or that contain it or are contained in it, best first; at most `limit`.
    package static func near(_ input: String, in names: [String], limit: Int = 5) -> [String] {
        let wanted = Array(input.lowercased().unicodeScalars)
        guard !wanted.isEmpty else { return [] }
        let threshold = max(1, wanted.count * 2 / 5 + 1)
        var found: [(name: String, distance: Int)] = []
        for name in Set(names) {
            let lowered = name.lowercased()
            if lowered == input.lowercased() {
                found.append((name, 0))
                continue
            }
            if let distance = distance(wanted, Array(lowered.unicodeScalars), atMost: threshold) {
                found.append((name, distance))
            } else if lowered.contains(input.lowercased()) || input.lowercased().contains(lowered) {
                found.append((name, threshold + 1))
            }
        }
        found.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
        return found.prefix(limit).map(\.name)
    }

    /// The Levenshtein distance of two sequences, or `nil` when it is above `limit`. Uses two
    /// rows, so memory stays linear in the shorter input.
    static func distance(_ first: [Unicode.Scalar], _ second: [Unicode.Scalar], atMost limit: Int) -> Int? {
        if abs(first.count - second.count) > limit { return nil }
        if first.isEmpty { return second.count <= limit ? second.count : nil }
        if second.isEmpty { return first.count <= limit ? first.count : nil }
        var previous = Array(0...second.count)
        var current = [Int](repeating: 0, count: second.count + 1)
        for (row, a) in first.enumerated() {
            current[0] = row + 1
            var smallest = current[0]
            for (column, b) in second.enumerated() {
                let cost = a == b ? 0 : 1
                current[column + 1] = min(previous[column + 1] + 1, current[column] + 1, previous[column] + cost)
                smallest = min(smallest, current[column + 1])
            }
            if smallest > limit { return nil }
            swap(&previous, &current)
        }
        let result = previous[second.count]
        return result <= limit ? result : nil
    }
}
