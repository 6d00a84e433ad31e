/// A growable list of plain values in one allocation, for the source normalizer's token, member and
/// frame lists: pushing and reading cost no uniqueness checks and no reference counting.
///
/// Invariants: `base` points to `capacity` (at least 1) allocated elements owned by this list, the
/// first `count` of them initialized; the list is not copyable, so nothing else frees them. Elements
/// are `BitwiseCopyable`, so they need no deinitialization.
struct FlatList<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of elements.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = UnsafeMutablePointer<Element>.allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// Appends an element.
    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// The element at `index`, which must be below ``count``.
    @inline(__always)
    subscript(index: Int) -> Element {
        get {
            assert(index >= 0 && index < count)
            return base[index]
        }
        set {
            assert(index >= 0 && index < count)
            base[index] = newValue
        }
    }

    /// The last element; the list must not be empty.
    @inline(__always)
    var last: Element {
        get {
            assert(count > 0)
            return base[count - 1]
        }
        set {
            assert(count > 0)
            base[count - 1] = newValue
        }
    }

    /// Drops the elements from `newCount` on.
    @inline(__always)
    mutating func truncate(to newCount: Int) {
        count = min(count, max(0, newCount))
    }

    private mutating func grow() {
        let newCapacity = capacity * 2
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
