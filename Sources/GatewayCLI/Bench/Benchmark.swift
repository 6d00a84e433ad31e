import Foundation
import GraphQLLanguage

/// One benchmark that `gateway bench NAME` runs.
///
/// To add one, write a type in its own file under `Bench/` and list it in
/// ``BenchCommand/benchmarks``; `ParseBenchmark` in `Bench+Parse.swift` is a short one to start from:
/// it reads its files through `BenchmarkInput`, measures each with `BenchmarkRunner.measure`, and
/// throws `BenchmarkFailure` for bad input.
public protocol Benchmark: Sendable {
    /// The name typed after `gateway bench`.
    var name: String { get }
    /// One line for the list of benchmarks.
    var summary: String { get }
    /// The arguments after the name, for the help text, for example `FILE... [--schema]`.
    var usage: String { get }
    /// The options the benchmark reads besides the common `--json` and `--time`.
    var options: [BenchmarkOption] { get }
    /// Prepares the inputs, measures, and returns one result per measured input.
    /// - Throws: ``BenchmarkFailure`` for bad input, `UsageError` for a bad command line.
    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) async throws -> [BenchmarkResult]
}

/// An option a benchmark reads: a flag, or an option that takes a value.
public struct BenchmarkOption: Sendable {
    /// The name without the leading `--`.
    public var name: String
    /// Whether it takes a value (`--name VALUE`).
    public var takesValue: Bool
    /// One line of help.
    public var help: String

    /// A flag, `--name`.
    public static func flag(_ name: String, help: String) -> BenchmarkOption {
        BenchmarkOption(name: name, takesValue: false, help: help)
    }

    /// An option with a value, `--name VALUE`.
    public static func value(_ name: String, help: String) -> BenchmarkOption {
        BenchmarkOption(name: name, takesValue: true, help: help)
    }
}

/// The command line of one benchmark, already split into its positionals, option values and flags.
public struct BenchmarkInput: Sendable {
    /// The arguments after the benchmark's name that are not options.
    public var positionals: [String]
    /// The values of the benchmark's options that were given.
    public var values: [String: String]
    /// The flags that were given.
    public var flags: Set<String>
    /// Where output goes and relative paths resolve.
    public var output: Output
    /// Whether `--json` was given: benchmarks that print their own report print one JSON object.
    public var json: Bool = false

    /// Whether `--name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of `--name`, if given.
    public func value(_ name: String) -> String? { values[name] }

    /// The bytes of a file named on the command line.
    /// - Throws: ``BenchmarkFailure`` with exit status 2 when it cannot be read.
    public func read(_ path: String) throws(BenchmarkFailure) -> [UInt8] {
        do throws(GraphQLFile.ReadError) {
            return try GraphQLFile.read(path, output: output)
        } catch {
            throw BenchmarkFailure(message: error.description, status: 2)
        }
    }
}

/// A benchmark that cannot run: the message to show and the exit status.
public struct BenchmarkFailure: Error, Sendable, CustomStringConvertible {
    /// What is wrong, ready to print.
    public var message: String
    /// 1 for bad input (a syntax error), 2 for usage or I/O errors.
    public var status: Int32

    /// Creates a failure.
    public init(message: String, status: Int32) {
        self.message = message
        self.status = status
    }

    /// The message.
    public var description: String { message }
}
