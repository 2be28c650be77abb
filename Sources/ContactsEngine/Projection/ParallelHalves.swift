/// Work on an array split in two halves, the second on a thread of its own while the calling
/// thread does the first: a sorted listing reads and orders every contact's names before it
/// writes the first contact, and on a two-processor machine the other processor would wait.
///
/// Inlinable, and the work is a closure the caller writes: a caller's elements are then compared
/// by their own `<`, not through a generic witness for every comparison.
package enum ParallelHalves {
    /// Below this many elements the work stays on the calling thread: starting a thread costs
    /// more than half of the work saves.
    package static let minimumCount = 8_192

    /// `body` applied to the first and second halves of `elements` at once, in that order; to
    /// all of them, as one result, when there are fewer than `minimumCount`.
    @inlinable package static func map<Element: Sendable, Result: Sendable>(
        _ elements: [Element], _ body: @escaping @Sendable (ArraySlice<Element>) -> Result
    ) -> [Result] {
        guard elements.count >= minimumCount else { return [body(elements[...])] }
        let middle = elements.count / 2
        let second = BackgroundWork(named: "ledger-half") { body(elements[middle...]) }
        let first = body(elements[..<middle])
        return [first, second.wait()]
    }
}
