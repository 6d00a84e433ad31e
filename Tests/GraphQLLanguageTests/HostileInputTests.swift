import Foundation
import GatewayTestSupport
import GraphQLLanguage
import Testing

/// Hostile documents end in a clean, specific error (or parse), never a crash, a hang or a stack
/// overflow.
@Suite(.offPool) struct HostileInputTests {
    /// The constructs that nest, each as a document `depth` levels deep.
    enum Nesting: String, CaseIterable, CustomTestStringConvertible {
        case selections, lists, objects, listTypes

        var testDescription: String { rawValue }

        /// The character that opens one level.
        var opener: UInt8 {
            switch self {
            case .selections, .objects: UInt8(ascii: "{")
            case .lists, .listTypes: UInt8(ascii: "[")
            }
        }

        /// Levels that the rest of the document already opens (the selection set around arguments).
        var enclosingLevels: Int { self == .lists || self == .objects ? 1 : 0 }

        /// A document nested `depth` levels deep; closed (and valid) when `closed`.
        func document(depth: Int, closed: Bool) -> String {
            let levels = depth - enclosingLevels
            switch self {
            case .selections:
                return "{" + String(repeating: "a{", count: levels - 1) + "a"
                    + (closed ? String(repeating: "}", count: levels) : "")
            case .lists:
                return "{a(b:" + String(repeating: "[", count: levels)
                    + (closed ? String(repeating: "]", count: levels) + ")}" : "")
            case .objects:
                return "{a(b:" + String(repeating: "{c:", count: levels)
                    + (closed ? "1" + String(repeating: "}", count: levels) + ")}" : "")
            case .listTypes:
                return "query($v:" + String(repeating: "[", count: levels)
                    + (closed ? "A" + String(repeating: "]", count: levels) + "){a}" : "")
            }
        }

        /// The offset of the `number`-th (1-based) opening character of this kind in `bytes`.
        func offsetOfOpener(_ number: Int, in bytes: [UInt8]) -> Int? {
            var seen = 0
            for (offset, byte) in bytes.enumerated() where byte == opener {
                seen += 1
                if seen == number + (self == .objects ? 1 : 0) { return offset }
            }
            return nil
        }
    }

    static let profiles: [Limits] = [.operations, .schemas]

    /// The error `body` throws, or `nil`; keeps large documents out of test expressions, whose
    /// values the test library would otherwise describe.
    static func failure(_ body: () throws(GraphQLSyntaxError) -> Void) -> GraphQLSyntaxError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: Nesting.allCases, [10_000, 1_000_000])
    func deepNestingFailsFastWithALimitError(_ nesting: Nesting, depth: Int) throws {
        for limits in Self.profiles {
            let source = Source(nesting.document(depth: depth, closed: false))
            var failure: GraphQLSyntaxError?
            // The issue's 50 ms, timed on a run the system did not interrupt (see UndisturbedTiming).
            let elapsed = UndisturbedTiming.measure {
                failure = Self.failure { () throws(GraphQLSyntaxError) in _ = try Parser.parse(source, limits: limits) }
            }
            #expect(elapsed < .milliseconds(50))
            guard let failure else {
                Issue.record("\(nesting) \(depth) deep parsed")
                continue
            }
            if source.bytes.count > limits.maxBytes {
                #expect(failure.limit == .bytes)
                #expect(failure.location.offset == limits.maxBytes)
            } else {
                #expect(failure.limit == .depth)
                let offset = nesting.offsetOfOpener(limits.maxDepth + 1 - nesting.enclosingLevels, in: source.bytes)
                #expect(failure.location.offset == offset)
                #expect(failure.message.contains("deeper than \(limits.maxDepth) levels"))
            }
        }
    }

    @Test(arguments: Nesting.allCases)
    func nestingAtTheLimitParsesAndOneMoreLevelFails(_ nesting: Nesting) throws {
        for limits in Self.profiles {
            let deepest = nesting.document(depth: limits.maxDepth, closed: true)
            #expect(
                Self.failure { () throws(GraphQLSyntaxError) in _ = try Parser.parse(deepest, limits: limits) } == nil)
            let tooDeep = nesting.document(depth: limits.maxDepth + 1, closed: true)
            let failure = Self.failure { () throws(GraphQLSyntaxError) in _ = try Parser.parse(tooDeep, limits: limits)
            }
            #expect(failure?.limit == .depth)
        }
    }

    @Test func deepestAllowedNestingFitsOnA512KiBStack() async {
        let failures = await Self.onSmallStack {
            var failures: [String] = []
            for nesting in Nesting.allCases {
                for limits in Self.profiles {
                    do throws(GraphQLSyntaxError) {
                        _ = try Parser.parse(nesting.document(depth: limits.maxDepth, closed: true), limits: limits)
                    } catch {
                        failures.append("\(nesting) at \(limits.maxDepth): \(error.message)")
                    }
                    do throws(GraphQLSyntaxError) {
                        _ = try Parser.parse(nesting.document(depth: 1_000_000, closed: false), limits: limits)
                        failures.append("\(nesting) 1,000,000 deep parsed")
                    } catch {
                        if error.limit == nil { failures.append("\(nesting): \(error.message)") }
                    }
                }
            }
            return failures
        }
        #expect(failures == [])
    }

    /// Runs `body` on a thread with a 512 KiB stack and returns its result.
    private static func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }

    @Test func tenThousandDirectivesHitTheTokenLimitForOperationsAndParseAsSchema() throws {
        let text = "{ a" + String(repeating: " @d", count: 10_000) + " }"
        let failure = Self.failure { () throws(GraphQLSyntaxError) in _ = try Parser.parse(text, limits: .operations) }
        #expect(failure?.limit == .tokens)
        #expect(failure?.message == "Syntax Error: Document contains more than 15000 tokens. Parsing aborted.")
        let document = try Parser.parse(text, limits: .schemas)
        guard case .operation(let operation) = document.definitions.first,
            case .field(let field) = operation.selectionSet.selections.first
        else {
            Issue.record("unexpected shape")
            return
        }
        #expect(field.directives.count == 10_000)
    }

    @Test func threeHundredThousandSpacesAreOneIgnoredToken() throws {
        let spaces = String(repeating: " ", count: 300_000)
        #expect(Self.failure { () throws(GraphQLSyntaxError) in _ = try Parser.parse(spaces + "{ a }") } == nil)
        let failure = Self.failure { () throws(GraphQLSyntaxError) in _ = try Parser.parse(spaces) }
        #expect(failure?.message == "Syntax Error: Unexpected <EOF>.")
        #expect(failure?.location.column == 300_001)
    }

    @Test func manyCommasHitTheIgnoredTokenLimit() throws {
        let commas = "{ a(b: 1" + String(repeating: ",", count: 199_990) + ") }"
        #expect(Self.failure { () throws(GraphQLSyntaxError) in _ = try Parser.parse(commas) } == nil)
        let tooMany = "{ a(b: 1" + String(repeating: ",", count: 200_001) + ") }"
        let failure = Self.failure { () throws(GraphQLSyntaxError) in _ = try Parser.parse(tooMany) }
        #expect(failure?.limit == .ignoredTokens)
        // Two runs of spaces come first, so the 199,999th comma is ignored token 200,001.
        #expect(failure?.location.offset == 8 + 199_998)
    }

    @Test func hundredThousandCommentLinesHitTheIgnoredTokenLimitForOperations() throws {
        let text = String(repeating: "# c\n", count: 100_000) + "{ a }"
        let failure = Self.failure { () throws(GraphQLSyntaxError) in _ = try Parser.parse(text, limits: .operations) }
        #expect(failure?.limit == .ignoredTokens)
        #expect(failure?.message.hasPrefix("Syntax Error: Document contains more than 200000 ignored tokens") == true)
        #expect(Self.failure { () throws(GraphQLSyntaxError) in _ = try Parser.parse(text, limits: .schemas) } == nil)
    }

    @Test func tenMillionCharacterNameExceedsTheOperationSizeAndParsesAsSchema() throws {
        let name = String(repeating: "a", count: 10_000_000)
        let text = "{ " + name + " }"
        let failure = Self.failure { () throws(GraphQLSyntaxError) in _ = try Parser.parse(text, limits: .operations) }
        #expect(failure?.limit == .bytes)
        #expect(failure?.location.offset == 1 << 20)
        let document = try Parser.parse(text, limits: .schemas)
        guard case .operation(let operation) = document.definitions.first,
            case .field(let field) = operation.selectionSet.selections.first
        else {
            Issue.record("unexpected shape")
            return
        }
        #expect(field.name.value.utf8.count == 10_000_000)
    }

    @Test func unterminatedLongStringsEndAtTheEnd() throws {
        for opener in ["\"", "\"\"\""] {
            let text = "{ a(b: " + opener + String(repeating: "x", count: 500_000)
            let failure = Self.failure { () throws(GraphQLSyntaxError) in _ = try Parser.parse(text) }
            #expect(failure?.message == "Syntax Error: Unterminated string.")
            #expect(failure?.location.offset == text.utf8.count)
        }
    }

    /// Byte sequences that are not UTF-8, each placed where the lexer reads it, with the offset of
    /// the bad sequence.
    static let invalidUTF8: [(String, [UInt8], Int)] = [
        ("a stray byte", Array("{ a ".utf8) + [0xFF] + Array(" }".utf8), 4),
        ("a stray continuation byte", Array("{ a ".utf8) + [0x80], 4),
        ("an overlong encoding", Array("{ a(b: \"".utf8) + [0xC0, 0x80] + Array("\") }".utf8), 8),
        ("an encoded surrogate", Array("{ a(b: \"".utf8) + [0xED, 0xA0, 0x80] + Array("\") }".utf8), 8),
        ("a code point above U+10FFFF", Array("{ a(b: \"".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("\") }".utf8), 8),
        ("a sequence cut off by the end", Array("{ a(b: \"".utf8) + [0xE2, 0x82], 8),
        ("a sequence cut off by a quote", Array("{ a(b: \"".utf8) + [0xE2, 0x22] + Array(") }".utf8), 8),
        ("a bad byte in a block string", Array("{ a(b: \"\"\"x".utf8) + [0xFE] + Array("\"\"\") }".utf8), 11),
        ("a bad byte in a comment", Array("# note ".utf8) + [0xC3, 0x28] + Array("\n{ a }".utf8), 7),
    ]

    @Test(arguments: invalidUTF8)
    func invalidUTF8IsAnErrorAtItsOffset(_ description: String, _ bytes: [UInt8], _ offset: Int) throws {
        let failure = try #require(throws: GraphQLSyntaxError.self) { try Parser.parse(Source(bytes: bytes)) }
        #expect(failure.location.offset == offset, "\(description)")
        #expect(failure.message.hasPrefix("Syntax Error: Invalid UTF-8 byte 0x"), "\(description)")
    }

    @Test func controlCharactersAreAllowedInStringsButNotOutside() throws {
        let document = try Parser.parse("{ a(b: \"\u{0}\u{7}\") }")
        guard case .operation(let operation) = document.definitions.first,
            case .field(let field) = operation.selectionSet.selections.first,
            case .string(let value) = field.arguments.first?.value
        else {
            Issue.record("unexpected shape")
            return
        }
        #expect(value.value == "\u{0}\u{7}")
        expectSyntaxError("{ a 1️⃣\u{0} }", "Syntax Error: Unexpected character: U+0000.")
    }

    @Test func everyPrefixOfAValidDocumentEndsCleanly() throws {
        var documents = [MiniKitchenSink.text]
        if Corpus.isAvailable {
            for path in [
                "operations/kitchen-sink/graphql-js/kitchen-sink.graphql",
                "schemas/kitchen-sink/graphql-js/schema-kitchen-sink.graphql",
            ] {
                documents.append(String(decoding: try Corpus.bytes(path), as: UTF8.self))
            }
        }
        for document in documents {
            let bytes = Array(document.utf8)
            for length in 0...bytes.count {
                do throws(GraphQLSyntaxError) {
                    _ = try Parser.parse(Source(bytes: Array(bytes[0..<length])), limits: .schemas)
                } catch {
                    #expect(error.location.offset <= length)
                    #expect(error.limit == nil)
                    #expect(length < bytes.count, "the whole document failed: \(error)")
                }
            }
        }
    }
}
