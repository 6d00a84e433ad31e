/// Single Root Field — https://spec.graphql.org/October2021/#sec-Single-root-field
///
/// A subscription selects exactly one top-level field, and not an introspection field. The fields
/// are collected as execution collects them (graphql-js `collectFields` with no variables): `@skip`
/// and `@include` with literal arguments are honoured, fragments are followed once each.
enum SingleFieldSubscriptionsRule {
    static func check(_ operation: OperationDefinition, in context: inout ValidationContext) {
        guard operation.operation == .subscription else { return }
        let schema = context.schema
        let subscriptionType = schema.subscriptionTypeIndex
        guard subscriptionType >= 0 else { return }
        var keys: [String] = []
        var fieldsByKey: [String: [(field: Field, place: Place)]] = [:]
        var visitedFragments = Set<String>()
        // Frames of (selection set, next selection, document it belongs to): an explicit stack
        // keeps the depth-first order without recursion.
        var stack: [(set: SelectionSet, next: Int, document: Int)] = [(operation.selectionSet, 0, context.document)]
        while let frame = stack.last {
            guard frame.next < frame.set.selections.count else {
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            let selection = frame.set.selections[frame.next]
            guard isIncluded(selection.directives) else { continue }
            switch selection {
            case .field(let field):
                let key = field.responseKey
                if fieldsByKey[key] == nil { keys.append(key) }
                let place = Place(document: frame.document, offset: field.range.start)
                fieldsByKey[key, default: []].append((field, place))
            case .inlineFragment(let inline):
                if conditionMatches(inline.typeCondition, subscriptionType, schema) {
                    stack.append((inline.selectionSet, 0, frame.document))
                }
            case .fragmentSpread(let spread):
                guard visitedFragments.insert(spread.name.value).inserted,
                    let index = context.fragmentIndex(named: spread.name.value)
                else { continue }
                let fragment = context.fragments[index]
                if conditionMatches(fragment.definition.typeCondition, subscriptionType, schema) {
                    stack.append((fragment.definition.selectionSet, 0, fragment.document))
                }
            }
        }
        let name = operation.name.map { "Subscription \"\($0.value)\"" } ?? "Anonymous Subscription"
        if keys.count > 1 {
            let extra = keys.dropFirst().flatMap { fieldsByKey[$0] ?? [] }.map(\.place)
            context.report(.singleFieldSubscriptions, "\(name) must select only one top level field.", extra)
        }
        for key in keys {
            guard let fields = fieldsByKey[key], let first = fields.first, first.field.name.value.hasPrefix("__") else {
                continue
            }
            context.report(.singleFieldSubscriptions,
                           "\(name) must not select an introspection top level field.", fields.map(\.place))
        }
    }

    /// `@skip(if: true)` or `@include(if: false)` written literally excludes a selection.
    private static func isIncluded(_ directives: [Directive]) -> Bool {
        for directive in directives {
            let name = directive.name.value
            guard name == "skip" || name == "include" else { continue }
            for argument in directive.arguments where argument.name.value == "if" {
                if case .boolean(let value) = argument.value, value.value == (name == "skip") { return false }
            }
        }
        return true
    }

    private static func conditionMatches(_ condition: NamedType?, _ type: Int, _ schema: Schema) -> Bool {
        guard let condition else { return true }
        guard let conditional = schema.typeIndex(named: condition.name.value) else { return false }
        if conditional == type { return true }
        return schema.kind(conditional).isAbstract && schema.isSubType(conditional, type)
    }
}
