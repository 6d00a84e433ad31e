@testable import GraphQLLanguage
import Testing

/// `Normalizer.normalize(Source)` against the reference it must equal: parsing the text and
/// normalizing the document. The same bytes, names and errors on every corpus document, generated
/// documents, their prefixes and hostile input; and the fast route really taken where it should be.
@Suite struct SourceNormalizerTests {
    typealias Outcome = Result<NormalizedText, NormalizationError>

    /// The reference: the parser, then the syntax-tree normalizer.
    static func reference(_ source: Source, _ operation: String?, _ limits: Limits = .operations) -> Outcome {
        let document: Document
        do throws(GraphQLSyntaxError) {
            document = try Parser.parse(source, limits: limits)
        } catch {
            return .failure(.syntax(error))
        }
        do throws(OperationSelectionError) {
            return .success(NormalizedText(try Normalizer.normalize(document, operationName: operation)))
        } catch {
            return .failure(.selection(error))
        }
    }

    static func normalized(_ source: Source, _ operation: String?, _ limits: Limits = .operations) -> Outcome {
        do throws(NormalizationError) {
            return .success(try Normalizer.normalize(source, operationName: operation, limits: limits))
        } catch {
            return .failure(error)
        }
    }

    /// Whether the text takes the fast route (the scan accepts it and selects the operation).
    static func takesFastRoute(_ source: Source, _ operation: String?, _ limits: Limits = .operations) -> Bool {
        source.bytes.withUnsafeBufferPointer {
            Normalizer.normalizeTokens($0, operationName: operation, limits: limits) != nil
        }
    }

    /// The names to select in a document: each operation's, and `nil`.
    static func selections(_ source: Source) -> [String?] {
        guard let document = try? Parser.parse(source, limits: .schemas) else { return [nil] }
        let names = document.definitions.compactMap { definition -> String? in
            guard case .operation(let operation) = definition else { return nil }
            return operation.name?.value
        }
        return [nil, "NoSuchOperation"] + names
    }

    /// Whether the document has only operations and fragments, the only definitions the fast route reads.
    static func isExecutable(_ source: Source) -> Bool {
        guard let document = try? Parser.parse(source) else { return false }
        return document.definitions.allSatisfy(\.isExecutable) && document.definitions.count <= 64
    }

    /// An outcome as readable text that differs exactly when outcomes differ.
    static func summary(_ outcome: Outcome) -> String {
        switch outcome {
        case .success(let normalized):
            let name = normalized.operationName ?? "-"
            return "\(normalized.operationType) \(name) \(normalized.fragmentNames) \(normalized.text)"
        case .failure(.syntax(let error)):
            return "syntax error at \(error.location.offset), limit \(String(describing: error.limit)): \(error)"
        case .failure(.selection(let error)):
            return "selection error: \(error)"
        }
    }

    func expectSame(_ source: Source, _ operation: String?, _ limits: Limits = .operations) {
        let expected = Self.reference(source, operation, limits)
        let actual = Self.normalized(source, operation, limits)
        #expect(Self.summary(actual) == Self.summary(expected), "\(source.name), operation \(operation ?? "nil")")
        #expect(actual == expected)
        if case .success = expected, Self.isExecutable(source) {
            #expect(Self.takesFastRoute(source, operation, limits), "\(source.name) did not take the fast route")
        }
    }

    @Test(arguments: Corpus.documents)
    func everyCorpusDocumentNormalizesAsTheParserRouteDoes(_ entry: Corpus.DocumentEntry) throws {
        let source = Source(bytes: try Corpus.bytes(entry.path), name: entry.path)
        for operation in Self.selections(source) {
            expectSame(source, operation)
            expectSame(source, operation, .schemas)
        }
    }

    @Test(arguments: Corpus.malformed)
    func everyMalformedCorpusDocumentFailsWithTheParsersError(_ entry: Corpus.MalformedEntry) throws {
        let source = Source(bytes: try Corpus.bytes(entry.path), name: entry.path)
        guard case .failure(.syntax) = Self.reference(source, nil) else {
            Issue.record("\(entry.path) parses")
            return
        }
        expectSame(source, nil)
    }

    @Test(arguments: PrinterPropertyTests.seedBatches)
    func generatedDocumentsNormalizeAsTheParserRouteDoes(batch: Int) throws {
        for seed in UInt64(batch) * 60..<UInt64(batch + 1) * 60 {
            var generator = DocumentGenerator(seed: seed)
            let document = generator.executableDocument()
            var layout = RandomLayout(seed: seed)
            for text in [Printer.print(document), layout.render(document)] {
                let source = Source(text, name: "seed \(seed)")
                for operation in Self.selections(source) {
                    expectSame(source, operation)
                }
            }
        }
    }

    @Test func everyPrefixFailsOrSucceedsAsTheParserRouteDoes() throws {
        var texts = [MiniKitchenSink.text]
        var generator = DocumentGenerator(seed: 7)
        texts.append(Printer.print(generator.executableDocument()))
        if Corpus.isAvailable {
            for path in [
                "operations/kitchen-sink/graphql-js/kitchen-sink.graphql",
                "operations/shopify-storefront/storefront-api-learning-kit/06_products/05_get_product_media/"
                    + "query.graphql",
            ] {
                texts.append(String(decoding: try Corpus.bytes(path), as: UTF8.self))
            }
        }
        for text in texts {
            let bytes = Array(text.utf8)
            for length in 0...bytes.count {
                let source = Source(bytes: Array(bytes[0..<length]), name: "prefix")
                expectSame(source, nil)
            }
        }
    }

    static let edgeCases: [String] = [
        "{ f(b: 1, a: \"x\") }",
        "{ f(a: [1 -2 $v B \"s\" \"t\" \"\"\"u\"\"\" true null 1.5e3 -0.5]) }",
        "query ($b: Int = 1, $a: [ID!]! = [\"x\"] @d(z: 1, y: 2)) @op(b: 1, a: 2) { x }",
        "query { a }", "query Q { a }", "mutation { a }", "subscription S { a }", "query @d { a }",
        "{ a(o: {z: {y: 1, x: [{b: 1, a: 2}, {}]}, a: null, m: {}}) }",
        "{ f(a: 2, a: 1, b: 0) { g(y: {b: 2, b: 1, a: 0}) } }",
        "{ f(" + (0..<40).reversed().map { "a\($0): \($0)" }.joined(separator: ", ") + ") }",
        "{ f(o: {" + (0..<20).reversed().map { "k\($0 % 7): \($0)" }.joined(separator: ", ") + "}) }",
        "{ ...F } fragment F on T { ...G } fragment G on T { a } fragment Unused on T { u }",
        "{ ...A } fragment A on T { ...B a } fragment B on T { ...A b }",
        "query Q { ...Z ...Y ...Z } fragment Z on T { z } fragment Y on T { ...X } fragment X on T { x }",
        #"{ f(a: "esc \" \\ \/ \b \f \n \r \t \u00e9 \u{1F600} \uD83D\uDE00", b: "\u0001\u007F\u0085") }"#,
        "{ f(a: \"\"\"\n    block \\\"\"\" with\n      indent\n  \"\"\", b: \"\"\"one\"\"\", c: \"\"\"\"\"\") }",
        "{ f(a: \"tab\there é 😀 \u{7F}\") }",
        "{ a: b @include(if: true) ... on T @skip(if: false) { c } ... @d { e } ...F @x ... { g } } "
            + "fragment F on T @dir(b: 1, a: 2) { z }",
        "# comment\n{ a, b,, c # trailing\n d }\n# end",
        "\u{FEFF}{ a \u{FEFF} b }",
        "{ f(a: 1, b: ENUM, c: 1.5e3, d: -1, e: true, f: null, g: $v, h: [$a $b C]) }",
        "query on { on: on(on: on) ...on on { on } } fragment on on on { on }",
        "query A { a } query B { b }", "{ a } { b }", "query A { a } query A { b }",
        "fragment F on T { a }", "{ ...Missing }", "{ ...F } fragment F on T { a } fragment F on T { b }",
        "type T { a: Int } query { a }", "\"description\" query { a }", "extend type T { a: Int }",
        (0..<70).map { "fragment F\($0) on T { a }" }.joined(separator: " ") + " { ...F3 }",
        "{ a", "{ }", "query", "{ a(b: ) }", "{ a(b: $) }", "query ($a: Int = $b) { a }", "{ ... }",
        "fragment on on T { a }", "{ a(b: [1, 2) }", "{ a(b: {c 1}) }", "query Q($a: [Int!) { a }", "",
    ]

    @Test(arguments: edgeCases)
    func edgeCasesNormalizeAsTheParserRouteDoes(_ text: String) {
        let source = Source(text, name: "edge.graphql")
        for operation in Self.selections(source) + ["A", "B", "Q"] {
            expectSame(source, operation)
        }
    }

    @Test func limitsFailAsTheParserDoes() {
        let deep = { (open: String, inner: String, close: String, depth: Int) in
            String(repeating: open, count: depth) + inner + String(repeating: close, count: depth)
        }
        var texts: [String] = []
        for depth in [127, 128, 129] {
            texts.append(deep("{ a ", "b", " }", depth))
            texts.append("{ f(a: " + deep("[", "1", "]", depth) + ") }")
            texts.append("{ f(a: " + deep("{a: ", "1", "}", depth) + ") }")
            texts.append("query ($v: " + deep("[", "Int", "]", depth) + ") { a }")
            texts.append("{ a " + deep("{ a ", "f(a: " + deep("[", "1", "]", 64) + ")", " }", depth - 64) + " }")
        }
        texts.append("{ " + String(repeating: "a ", count: 14_997) + "}")
        texts.append("{ " + String(repeating: "a ", count: 14_998) + "}")
        texts.append("{ a" + String(repeating: ",", count: 199_998) + " }")
        texts.append("{ a" + String(repeating: ",", count: 200_000) + " }")
        texts.append("{ a }" + String(repeating: " ", count: 1 << 20))
        texts.append(String(repeating: "{", count: 1_000_000))
        texts.append("{ f(a: " + String(repeating: "[", count: 999_000) + ") }")
        texts.append("query ($v: " + String(repeating: "[", count: 999_000) + "Int) { a }")
        for text in texts {
            expectSame(Source(text, name: "limits.graphql"), nil)
        }
        let tight = Limits(maxBytes: 64, maxTokens: 10, maxIgnoredTokens: 10, maxDepth: 2)
        for text in ["{ a { b { c } } }", "{ a b c d e f g h i }", "{ a, b, c, d, e, f }", "{ a(b: [[1]]) }", "{ a }"] {
            expectSame(Source(text, name: "tight.graphql"), nil, tight)
        }
    }

    @Test func errorsSayWhatIsWrong() throws {
        let syntax = Self.normalized(Source("{ a", name: "Q.graphql"), nil)
        guard case .failure(let error) = syntax, case .syntax(let parseError) = error else {
            Issue.record("expected a syntax error, got \(syntax)")
            return
        }
        #expect(error.description == parseError.description)
        #expect(error.description.hasPrefix("Q.graphql:1:4: error: Syntax Error: Expected Name, found <EOF>."))
        let selection = Self.normalized(Source("query A { a } query B { b }"), nil)
        #expect(selection == .failure(.selection(.operationNameRequired(available: ["A", "B"]))))
        #expect(try Normalizer.normalize(Source("query A { a } query B { b(y: 1, x: 2) }"), operationName: "B").text
            == "query B{b(x:2 y:1)}")
    }
}
