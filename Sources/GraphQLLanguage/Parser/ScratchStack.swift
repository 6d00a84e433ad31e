/// A growable stack of elements that the parser reuses for every list it builds.
///
/// A list's elements are pushed while it is parsed (nested lists push above them), then moved out
/// at once into an array of exactly the right size. That costs one allocation per list instead of
/// one per doubling, and moving (rather than copying) costs no reference counting.
///
/// Invariants: `base` is `nil` until the first push; slots `0..<count` are initialized. The owner
/// must call ``release()`` exactly once, after which the stack is unusable.
struct ScratchStack<Element> {
    private var base: UnsafeMutablePointer<Element>?
    private var capacity = 0
    /// The number of elements on the stack.
    private(set) var count = 0

    /// Pushes an element.
    @inline(__always)
    mutating func push(_ element: consuming Element) {
        if count == capacity { grow() }
        guard let base else { return }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Moves the elements from `start` to the top into a new array and pops them.
    @inline(__always)
    mutating func popArray(from start: Int) -> [Element] {
        let length = count - start
        guard length > 0, let base else { return [] }
        var result: [Element] = []
        result.reserveCapacity(length)
        for index in start..<count {
            result.append((base + index).move())
        }
        count = start
        return result
    }

    /// Pops the top element, or returns `nil` when the stack is empty.
    @inline(__always)
    mutating func popLast() -> Element? {
        guard count > 0, let base else { return nil }
        count -= 1
        return (base + count).move()
    }

    /// A copy of the top element, or `nil` when the stack is empty.
    @inline(__always)
    func last() -> Element? {
        guard count > 0, let base else { return nil }
        return base[count - 1]
    }

    /// Changes the top element in place; does nothing when the stack is empty.
    @inline(__always)
    mutating func modifyLast(_ body: (inout Element) -> Void) {
        guard count > 0, let base else { return }
        body(&base[count - 1])
    }

    /// Destroys the remaining elements and frees the storage.
    mutating func release() {
        guard let base else { return }
        base.deinitialize(count: count)
        base.deallocate()
        self.base = nil
        count = 0
        capacity = 0
    }

    private mutating func grow() {
        // Start small enough for the allocator's fast path; documents with long lists grow by doubling.
        let newCapacity = capacity == 0 ? max(4, 1024 / max(1, MemoryLayout<Element>.stride)) : capacity * 2
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            newBase.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = newBase
        capacity = newCapacity
    }
}
