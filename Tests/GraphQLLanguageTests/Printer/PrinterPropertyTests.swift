import GatewayTestSupport
import GraphQLLanguage
import Testing

/// Properties of printing and normalizing that hold for every document: generated ones and every
/// file of the corpus.
@Suite(.offPool) struct PrinterPropertyTests {
    /// Seeds are split into batches so the batches run in parallel.
    static let seedBatches = Array(0..<8)
    static let seedsPerBatch: UInt64 = 60

    private static func seeds(_ batch: Int) -> Range<UInt64> {
        UInt64(batch) * seedsPerBatch..<UInt64(batch + 1) * seedsPerBatch
    }

    @Test(arguments: seedBatches)
    func printingAGeneratedDocumentAndParsingItBackPrintsTheSameText(batch: Int) throws {
        for seed in Self.seeds(batch) {
            var generator = DocumentGenerator(seed: seed)
            for document in [generator.executableDocument(), generator.schemaDocument()] {
                let text = Printer.print(document)
                let reparsed: Document
                do {
                    reparsed = try Parser.parse(text, limits: .schemas)
                } catch {
                    Issue.record("seed \(seed): printed text does not parse: \(error)\n\(text)")
                    continue
                }
                let again = Printer.print(reparsed)
                #expect(again == text, "seed \(seed)")
            }
        }
    }

    @Test(arguments: seedBatches)
    func normalizingGeneratedOperationsIsIdempotentAndLayoutBlind(batch: Int) throws {
        for seed in Self.seeds(batch) {
            var generator = DocumentGenerator(seed: seed)
            let document = generator.executableDocument()
            var layout = RandomLayout(seed: seed)
            let relaidText = layout.render(document)
            let relaid = try Parser.parse(relaidText)
            for name in operationNames(document) {
                let normalized = try Normalizer.normalize(document, operationName: name)
                let again = try Normalizer.normalize(try Parser.parse(normalized.text), operationName: name)
                #expect(again.text == normalized.text, "seed \(seed): normalizing twice changed the text")
                let fromRelaid = try Normalizer.normalize(relaid, operationName: name)
                #expect(
                    fromRelaid.text == normalized.text,
                    "seed \(seed), operation \(name ?? "anonymous"): relaid document\n\(relaidText)")
                #expect(fromRelaid.fragmentNames == normalized.fragmentNames)
            }
        }
    }

    @Test(arguments: PrintedCorpus.entries.filter { !$0.isSchema })
    func normalizingEveryCorpusOperationIsIdempotentAndLayoutBlind(_ entry: PrintedCorpus.Entry) throws {
        let document = try Parser.parse(Source(bytes: try PrintedCorpus.bytes(entry.path), name: entry.path))
        let printed = try Parser.parse(try PrintedCorpus.bytes(entry.printed).string)
        var layout = RandomLayout(seed: UInt64(entry.path.utf8.count))
        let relaid = try Parser.parse(layout.render(document))
        for name in operationNames(document) {
            let normalized: NormalizedOperation
            do {
                normalized = try Normalizer.normalize(document, operationName: name)
            } catch .unknownFragment {
                continue  // fragments defined in another file of the same folder
            }
            let again = try Normalizer.normalize(try Parser.parse(normalized.text), operationName: name)
            #expect(again.text == normalized.text)
            #expect(try Normalizer.normalize(printed, operationName: name).text == normalized.text)
            #expect(try Normalizer.normalize(relaid, operationName: name).text == normalized.text)
        }
    }

    private func operationNames(_ document: Document) -> [String?] {
        let names = document.definitions.compactMap { definition -> String?? in
            guard case .operation(let operation) = definition else { return nil }
            return .some(operation.name?.value)
        }
        // Anonymous operations can only be selected when they are alone.
        return names.count == 1 ? [nil] + names : names.filter { $0 != nil }
    }
}

extension Array where Element == UInt8 {
    var string: String { String(decoding: self, as: UTF8.self) }
}
