/// Fragment Spreads Must Not Form Cycles —
/// https://spec.graphql.org/October2021/#sec-Fragment-spreads-must-not-form-cycles
///
/// No fragment spreads itself, directly or through others. Each fragment is explored once, with an
/// explicit stack, so any number of fragments and any cycle shape is checked in linear time.
enum NoFragmentCyclesRule {
    struct State {
        var visited = Set<String>()
    }

    private struct Step {
        var spread: FragmentSpread
        var document: Int
    }

    private struct Frame {
        var name: String
        var spreads: [FragmentSpread]
        var document: Int
        var next: Int
    }

    static func check(_ fragment: FragmentDefinition, in context: inout ValidationContext) {
        guard !context.noFragmentCycles.visited.contains(fragment.name.value),
            let start = context.fragmentIndex(named: fragment.name.value)
        else { return }
        // The spreads followed from `start`, and where on that path each fragment was entered.
        var spreadPath: [Step] = []
        var pathIndexByName: [String: Int] = [:]
        // Frames: a fragment being explored, its spreads and the next one to follow.
        var stack: [Frame] = []

        func enter(_ index: Int, _ context: inout ValidationContext) {
            let name = context.fragments[index].definition.name.value
            context.noFragmentCycles.visited.insert(name)
            let spreads = context.spreads(ofFragment: index)
            guard !spreads.isEmpty else { return }
            pathIndexByName[name] = spreadPath.count
            stack.append(Frame(name: name, spreads: spreads, document: context.fragments[index].document, next: 0))
        }

        enter(start, &context)
        while let frame = stack.last {
            guard frame.next < frame.spreads.count else {
                pathIndexByName[frame.name] = nil
                stack.removeLast()
                if !spreadPath.isEmpty, !stack.isEmpty { spreadPath.removeLast() }
                continue
            }
            stack[stack.count - 1].next += 1
            let spread = frame.spreads[frame.next]
            let spreadName = spread.name.value
            if let cycleIndex = pathIndexByName[spreadName] {
                let cycle = spreadPath[cycleIndex...] + [Step(spread: spread, document: frame.document)]
                let via = cycle.dropLast().map { "\"\($0.spread.name.value)\"" }.joined(separator: ", ")
                context.report(
                    .noFragmentCycles,
                    "Cannot spread fragment \"\(spreadName)\" within itself" + (via.isEmpty ? "." : " via \(via)."),
                    cycle.map { Place(document: $0.document, offset: $0.spread.range.start) }
                )
                continue
            }
            guard !context.noFragmentCycles.visited.contains(spreadName),
                let target = context.fragmentIndex(named: spreadName)
            else { continue }
            spreadPath.append(Step(spread: spread, document: frame.document))
            let depth = stack.count
            enter(target, &context)
            // A fragment without spreads pushes no frame: take its spread off the path again.
            if stack.count == depth { spreadPath.removeLast() }
        }
    }
}
