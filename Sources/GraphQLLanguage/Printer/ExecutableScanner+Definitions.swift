extension ExecutableScanner {
    /// The source bytes of a definition's name; empty for an anonymous operation.
    func nameBytes(of definition: ScannedDefinition) -> UnsafeBufferPointer<UInt8> {
        guard definition.nameToken >= 0 else { return UnsafeBufferPointer(rebasing: lexer.bytes[0..<0]) }
        let token = tokens[definition.nameToken]
        return UnsafeBufferPointer(rebasing: lexer.bytes[Int(token.start)..<Int(token.end)])
    }

    /// A definition's name as a string.
    func nameText(of definition: ScannedDefinition) -> String {
        String(decoding: nameBytes(of: definition), as: UTF8.self)
    }

    /// The index in ``definitions`` of the operation named `operationName`, or of the only
    /// operation when no name is given, as `DocumentIndex` selects it; `nil` when it selects none.
    func selectOperation(named operationName: String?) -> Int? {
        var selected = -1
        var operationCount = 0
        guard var wanted = operationName else {
            for index in 0..<definitions.count where definitions[index].kind != ScannedDefinition.fragment {
                operationCount += 1
                selected = index
            }
            return operationCount == 1 ? selected : nil
        }
        let duplicate = wanted.withUTF8 { name in
            for index in 0..<definitions.count where definitions[index].kind != ScannedDefinition.fragment {
                guard definitions[index].nameToken >= 0, nameBytes(of: definitions[index]).elementsEqual(name)
                else { continue }
                if selected >= 0 { return true }
                selected = index
            }
            return false
        }
        return selected >= 0 && !duplicate ? selected : nil
    }

    /// The indices in ``definitions`` of the fragments the definition at `operation` spreads,
    /// directly or through other fragments, each once, sorted by name; `nil` when one of them is not
    /// defined or defined more than once.
    func usedFragments(of operation: Int) -> [Int]? {
        var used: [Int] = []
        var next = -1
        var user = operation
        while true {
            let definition = definitions[user]
            spreads: for spread in definition.spreadStart..<definition.spreadEnd {
                let token = tokens[spreads[spread]]
                let name = UnsafeBufferPointer(rebasing: lexer.bytes[Int(token.start)..<Int(token.end)])
                for fragment in used where nameBytes(of: definitions[fragment]).elementsEqual(name) {
                    continue spreads
                }
                var found = -1
                for index in 0..<definitions.count where definitions[index].kind == ScannedDefinition.fragment {
                    guard nameBytes(of: definitions[index]).elementsEqual(name) else { continue }
                    if found >= 0 { return nil }
                    found = index
                }
                guard found >= 0 else { return nil }
                used.append(found)
            }
            next += 1
            guard next < used.count else { break }
            user = used[next]
        }
        if used.count > 1 {
            used.sort { nameBytes(of: definitions[$0]).lexicographicallyPrecedes(nameBytes(of: definitions[$1])) }
        }
        return used
    }
}
