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
}
