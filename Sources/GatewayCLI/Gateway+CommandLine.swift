/// The `gateway` command: verbs are registered here; each lives in its own file.
extension CommandLine {
    /// Runs the `gateway` command with `arguments` (without the program name) and returns its exit status.
    public static func run(_ arguments: [String]) async -> Int32 {
        await Dispatcher.standard.run(arguments, output: .standard)
    }
}
