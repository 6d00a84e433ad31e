extension Error {
    /// Whether the error is a `CancellationError`, told by its type alone.
    ///
    /// `error is CancellationError` casts into a value of that type, and `CancellationError` is
    /// a resilient type of the standard library, sized only at run time: an async function that
    /// makes the cast on any of its paths allocates room for one on the task's allocator every
    /// time it is called (see `InstantOffset` for the same with `ContinuousClock.Instant`).
    /// Comparing the error's type allocates nothing, so the package tells a cancellation this way
    /// everywhere.
    var isCancellation: Bool { type(of: self) == CancellationError.self }
}
