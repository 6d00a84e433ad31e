import Gateway

/// The whole-call deadline of `gateway request` and `gateway query`: every call has one.
enum CallDeadline {
    /// The deadline when neither `--deadline` nor `--timeout` is given.
    static let standard = Duration.seconds(30)

    /// `--deadline SECONDS` when given (it must be positive); otherwise 30 s, or with
    /// `--timeout T` and `--retries N` the time those allow, T × (N + 1) + 5 s, when longer.
    static func resolve(_ seconds: Double?, timeout: Duration?, retries: Int) throws(UsageError) -> Duration {
        if let seconds {
            guard seconds > 0 else {
                throw UsageError("--deadline takes a positive number of seconds; got \(seconds)")
            }
            return .milliseconds(Int64((min(seconds, 30 * 24 * 3600) * 1000).rounded(.up)))
        }
        guard let timeout else { return standard }
        return max(standard, timeout * (retries + 1) + .seconds(5))
    }
}
