/// An array for scratch space that is filled and emptied over and over, such as the bytes of the tag
/// the tokenizer is building: emptying it only forgets its elements (``count`` goes to zero), and the
/// next elements are written over the old ones in place.
///
/// `Array.removeAll(keepingCapacity:)` goes through the general `replaceSubrange`, and each `append`
/// then checks capacity and uniqueness again. Done for every tag of a page, the `removeAll` calls
/// alone were 8 % of the tokenizer's time.
///
/// Elements past ``count`` are stale, never read.
struct ReusableArray<Element>: Sendable where Element: Sendable & BitwiseCopyable {
    /// Holds the elements in `0..<count`, then stale ones from earlier fillings.
    private var buffer: [Element] = []
    /// The number of elements in use.
    private(set) var count = 0

    init() {}

    /// The elements in use.
    var elements: ArraySlice<Element> { buffer[..<count] }

    subscript(index: Int) -> Element {
        get {
            precondition(index < count, "index out of range")
            return buffer[index]
        }
        set {
            precondition(index < count, "index out of range")
            buffer[index] = newValue
        }
    }

    /// The elements in `range`, which must lie within ``count``.
    subscript(range: Range<Int>) -> ArraySlice<Element> {
        precondition(range.upperBound <= count, "range out of range")
        return buffer[range]
    }

    /// Forgets every element; the storage stays for the next ones.
    mutating func removeAll() {
        count = 0
    }

    /// Forgets the elements from `newCount` on.
    mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count, "count out of range")
        count = newCount
    }

    mutating func append(_ element: Element) {
        if count < buffer.count {
            buffer[count] = element
        } else {
            buffer.append(element)
        }
        count += 1
    }

    /// Appends `source`: copied over stale elements as far as they go, appended to the buffer after.
    mutating func append(contentsOf source: UnsafeBufferPointer<Element>) {
        guard let sourceStart = source.baseAddress, !source.isEmpty else { return }
        let inPlace = min(source.count, buffer.count - count)
        if inPlace > 0 {
            let start = count
            buffer.withUnsafeMutableBufferPointer { target in
                (target.baseAddress! + start).update(from: sourceStart, count: inPlace)
            }
        }
        if inPlace < source.count {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: source[inPlace...]))
        }
        count += source.count
    }

    /// Calls `body` with the elements in use.
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<count])) }
    }

    /// Calls `body` with the elements in use, to change them in place.
    mutating func withUnsafeMutableBufferPointer<R>(
        _ body: (UnsafeMutableBufferPointer<Element>) throws -> R
    ) rethrows -> R {
        let count = count
        return try buffer.withUnsafeMutableBufferPointer {
            try body(UnsafeMutableBufferPointer(rebasing: $0[..<count]))
        }
    }
}

extension ReusableArray where Element: Equatable {
    /// Whether the elements in use are `other`'s, in order.
    func elementsEqual(_ other: [Element]) -> Bool {
        elements.elementsEqual(other)
    }
}
