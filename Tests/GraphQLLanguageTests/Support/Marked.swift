import GraphQLLanguage
import Testing

/// GraphQL text with the expected error position marked inline by `1️⃣`, as in swift-syntax's
/// parser tests: the marker is removed and its byte offset remembered.
struct Marked {
    static let marker = "1️⃣"

    /// The text without the marker.
    let text: String
    /// The byte offset where the marker was.
    let offset: Int

    init(_ marked: String) {
        if let range = marked.range(of: Marked.marker) {
            offset = marked.utf8.distance(from: marked.startIndex, to: range.lowerBound)
            text = marked.replacingCharacters(in: range, with: "")
        } else {
            offset = -1
            text = marked
        }
    }
}

/// Parses `marked` and expects a syntax error with `message` at the marker.
func expectSyntaxError(
    _ marked: String, _ message: String, limits: Limits = .operations,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let input = Marked(marked)
    do {
        let document = try Parser.parse(input.text, limits: limits)
        Issue.record(
            "parsed into \(document.definitions.count) definitions, expected: \(message)",
            sourceLocation: sourceLocation)
    } catch {
        #expect(error.message == message, sourceLocation: sourceLocation)
        #expect(
            error.location.offset == input.offset, "error at \(error.location.offset)", sourceLocation: sourceLocation)
    }
}

/// Parses `text`, recording an issue instead of throwing when it fails.
func parsed(
    _ text: String, limits: Limits = .operations, sourceLocation: Testing.SourceLocation = #_sourceLocation
) -> Document? {
    do {
        return try Parser.parse(text, limits: limits)
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
        return nil
    }
}
