/// One verb of `gateway cache`: its help section, what it accepts, and how it runs.
protocol CacheVerb: Sendable {
    /// The verb, as typed: `list`, `show`, ...
    var name: String { get }
    /// The operands and options after the verb, for the usage line: `KEY [KEY]`, `[--sort ...]`.
    var synopsis: String { get }
    /// One line for the list of verbs.
    var summary: String { get }
    /// What the verb prints and its options, indented by two spaces, for `gateway cache help VERB`.
    var details: String { get }
    /// The filters and choices it takes beyond `--db`, `--json` and `--redact`.
    var options: Set<CacheOptions.Option> { get }
    /// How many operands (keys) it takes.
    var operands: ClosedRange<Int> { get }

    /// Runs the verb and returns its exit status.
    ///
    /// - Throws: `CacheFailure` (reported with its exit status), `UsageError` (exit 2), or an
    ///   error of the store (reported as the `CacheFailure` it stands for).
    func run(_ context: CacheContext) async throws -> Int32
}

extension CacheVerb {
    var options: Set<CacheOptions.Option> { [] }
    var operands: ClosedRange<Int> { 0...0 }

    /// The help section: the usage line, then the details.
    var help: String { "gateway cache \(name)\(synopsis.isEmpty ? "" : " " + synopsis)\n\(details)" }
}
