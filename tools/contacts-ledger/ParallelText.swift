import Dispatch
import Foundation
import Synchronization

/// Formats items as text on every processor and gives the text back in the items' order: the
/// output commands (`list --json`, `export`, `log --json`) spend most of their time turning
/// decoded contacts into JSON or vCard, which one item at a time leaves a core idle.
///
/// Items are gathered into a batch; a full batch is cut into one part per processor, the parts
/// are formatted at once, and their bytes are appended in order. An item whose formatting fails
/// ends the text: what the items before it gave is appended, and the failure thrown (a format
/// throws before it writes anything of its item).
struct ParallelText<Item: Sendable, Failure: Error> {
    private let format: @Sendable (Item, Int, inout [UInt8]) throws(Failure) -> Void
    private let weight: (Item) -> Int
    private var batch: [Item] = []
    private var batchWeight = 0
    private let batchSize: Int
    /// How many items were formatted before the batch.
    private var formatted = 0

    /// How many processors take part.
    private static var parts: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// A formatter that writes each item with `format`, which is given the item's position among
    /// all items (for a separator before all but the first). A batch is full when the weights of
    /// its items (one each unless told otherwise: a record weighs its operations) reach
    /// `batchSize`, so that it holds about as much text whatever the items' sizes.
    init(
        batchSize: Int = 1024, weight: @escaping (Item) -> Int = { _ in 1 },
        format: @escaping @Sendable (Item, Int, inout [UInt8]) throws(Failure) -> Void
    ) {
        self.format = format
        self.weight = weight
        self.batchSize = batchSize
    }

    /// Adds an item; when the batch is full, appends the batch's text to `output`.
    mutating func add(_ item: Item, to output: inout [UInt8]) throws(Failure) {
        batch.append(item)
        batchWeight += weight(item)
        if batchWeight >= batchSize { try drain(to: &output) }
    }

    /// Appends the text of the items gathered so far to `output`, in order.
    mutating func drain(to output: inout [UInt8]) throws(Failure) {
        let first = formatted
        formatted += batch.count
        batchWeight = 0
        defer { batch.removeAll(keepingCapacity: true) }
        let parts = min(Self.parts, batch.count)
        guard parts > 1 else {
            for (index, item) in batch.enumerated() { try format(item, first + index, &output) }
            return
        }
        let items = batch
        let format = self.format
        let texts = Mutex([(text: [UInt8], failure: Failure?)](repeating: ([], nil), count: parts))
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var text: [UInt8] = []
            var failure: Failure?
            do throws(Failure) {
                for index in stride(from: part * items.count / parts, to: (part + 1) * items.count / parts, by: 1) {
                    try format(items[index], first + index, &text)
                }
            } catch {
                failure = error
            }
            texts.withLock { [text, failure] in $0[part] = (text, failure) }
        }
        let results = texts.withLock { $0 }
        for result in results {
            output += result.text
            if let failure = result.failure { throw failure }
        }
    }
}
