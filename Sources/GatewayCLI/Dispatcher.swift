/// One verb of the `gateway` command.
public protocol Command: Sendable {
    /// The verb, as typed: `request`, `format`, `cache`.
    var name: String { get }
    /// One line for `gateway --help`.
    var summary: String { get }
    /// The full help text for `gateway help VERB`.
    var help: String { get }
    /// Runs the verb and returns the exit status.
    func run(_ arguments: inout Arguments, output: Output) async throws -> Int32
}

/// Finds the verb and runs it; turns usage errors into exit status 2.
struct Dispatcher: Sendable {
    var commands: [any Command]
    /// Verbs that run but are not listed in the help (test helpers).
    var hidden: [any Command] = []

    static var standard: Dispatcher {
        Dispatcher(commands: [
            RequestCommand(),
            QueryCommand(),
            SubscribeCommand(),
            ParseCommand(),
            FormatCommand(),
            NormalizeCommand(),
            CheckCommand(),
            GenerateCommand(),
            CacheCommand(),
            DemoCommand(),
            BenchCommand(),
        ], hidden: [CacheWriterTestCommand()])
    }

    private func command(named name: String) -> (any Command)? {
        commands.first { $0.name == name } ?? hidden.first { $0.name == name }
    }

    var usage: String {
        let width = commands.map(\.name.count).max() ?? 0
        let verbs = commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
        return """
            gateway: one client for REST and GraphQL backends.

            Usage: gateway VERB [OPTIONS] [ARGUMENTS]

            Verbs:
            \(verbs.joined(separator: "\n"))

            Run 'gateway help VERB' for the options of one verb.
            """
    }

    func run(_ arguments: [String], output: Output) async -> Int32 {
        guard let verb = arguments.first else {
            output.error(usage)
            return 2
        }
        if verb == "--help" || verb == "-h" || verb == "help" {
            if verb == "help", arguments.count > 1 {
                guard let command = command(named: arguments[1]) else {
                    output.error("gateway: unknown verb '\(arguments[1])'. Run 'gateway --help' for the list.")
                    return 2
                }
                output.print(command.help)
                return 0
            }
            output.print(usage)
            return 0
        }
        guard let command = command(named: verb) else {
            output.error("gateway: unknown verb '\(verb)'. Run 'gateway --help' for the list.")
            return 2
        }
        var rest = Arguments(Array(arguments.dropFirst()))
        if rest.flag("help", short: "-h") {
            output.print(command.help)
            return 0
        }
        do {
            return try await command.run(&rest, output: output)
        } catch let error as UsageError {
            output.error("gateway \(command.name): \(error.message)\nRun 'gateway help \(command.name)' for usage.")
            return 2
        } catch {
            output.error("gateway \(command.name): \(error)")
            return 1
        }
    }
}
