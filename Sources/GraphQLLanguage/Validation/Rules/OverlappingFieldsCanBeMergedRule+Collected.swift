extension OverlappingFieldsCanBeMergedRule {
    /// The fields of a selection set (inline fragments included) in collection order, grouped by
    /// response name, and the fragments the set spreads. Groups are in order of first appearance,
    /// as in graphql-js; the members of a group are linked in collection order, so listing one
    /// group costs its own size whatever the number of groups.
    struct Collected {
        var entries: [FieldEntry] = []
        /// For each entry, its group.
        var groupOf: [Int] = []
        /// For each entry, the next entry of its group, or -1.
        var nextInGroup: [Int] = []
        /// The response name, first entry, last entry and size of each group.
        var groupNames: [String] = []
        var groupFirst: [Int] = []
        var groupLast: [Int] = []
        var groupSize: [Int] = []
        /// Whether some response name occurs more than once.
        var hasRepeats = false
        /// Response name → group, kept once there are many groups.
        var groupByName: [String: Int] = [:]
        /// For each entry, the first entry of its group written the same way (same text, same
        /// parent type): such fields compare the same with any field, so one of them stands for
        /// all. Filled by ``classify(bytes:)``; empty until then.
        var classOf: [Int] = []
        /// Indices of the known fragments spread, each once, in order of first appearance.
        var fragments: [Int] = []
        /// The same indices, kept once there are many.
        var fragmentSet: Set<Int> = []

        /// The group with this response name, if any.
        @inline(__always)
        func group(named name: String) -> Int? {
            groupByName.isEmpty ? groupNames.firstIndex(of: name) : groupByName[name]
        }

        mutating func append(_ entry: FieldEntry, key: String) {
            let index = entries.count
            if groupNames.count == 32, groupByName.isEmpty {
                // From here on, names are hashed instead of searched.
                for (group, known) in groupNames.enumerated() { groupByName[known] = group }
            }
            entries.append(entry)
            nextInGroup.append(-1)
            if let group = group(named: key) {
                hasRepeats = true
                groupOf.append(group)
                nextInGroup[groupLast[group]] = index
                groupLast[group] = index
                groupSize[group] += 1
            } else {
                let group = groupNames.count
                if !groupByName.isEmpty { groupByName[key] = group }
                groupOf.append(group)
                groupNames.append(key)
                groupFirst.append(index)
                groupLast.append(index)
                groupSize.append(1)
            }
        }

        /// Records a spread of a known fragment, once.
        mutating func spread(_ fragment: Int) {
            if fragments.count < 16 {
                guard !fragments.contains(fragment) else { return }
                fragments.append(fragment)
                if fragments.count == 16 { fragmentSet = Set(fragments) }
            } else if fragmentSet.insert(fragment).inserted {
                fragments.append(fragment)
            }
        }

        /// The entries of a group, in collection order.
        func members(ofGroup group: Int) -> [Int] {
            var members: [Int] = []
            members.reserveCapacity(groupSize[group])
            var index = groupFirst[group]
            while index >= 0 {
                members.append(index)
                index = nextInGroup[index]
            }
            return members
        }

        /// Fills ``classOf``: entries of one group whose source text (alias, name, arguments,
        /// directives and sub-selections) and parent type are the same share a class. Without
        /// the source text every entry is a class of its own.
        mutating func classify(bytes: [UInt8]?, fields: [Field]) {
            classOf = Array(entries.indices)
            guard hasRepeats, let bytes else { return }
            struct Key: Hashable {
                var group: Int
                var parentType: Int
                var text: ArraySlice<UInt8>
            }
            var first: [Key: Int] = [:]
            for (index, entry) in entries.enumerated() where groupSize[groupOf[index]] > 1 {
                let range = fields[entry.field].range
                guard range.start >= 0, range.start <= range.end, range.end <= bytes.count else { continue }
                let key = Key(group: groupOf[index], parentType: entry.parentType, text: bytes[range.start..<range.end])
                if let known = first[key] {
                    classOf[index] = known
                } else {
                    first[key] = index
                }
            }
        }
    }
}
