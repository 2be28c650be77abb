import Dispatch
import Foundation
import Synchronization

/// Formats items as text on every processor and gives the text back in the items' order: the
/// output commands (`list --json`, `export`, `log --json`) spend most of their time turning
/// decoded contacts into JSON or vCard, which one item at a time leaves a core idle.
///
/// Items are gathered into a batch; a full batch is handed to a processor of its own, and the
/// caller goes on gathering the next while it is formatted. Once as many batches as there are
/// processors and one more are in formatting, the oldest's text is waited for and appended, so
/// that the processors are formatting the next batches while the caller writes the text out.
/// An item whose formatting fails ends the text: what the items before it gave is appended,
/// the batches after it are dropped, and the failure thrown (a format throws before it writes
/// anything of its item).
struct ParallelText<Item: Sendable, Failure: Error> {
    private let format: @Sendable (Item, Int, inout [UInt8]) throws(Failure) -> Void
    private let weight: (Item) -> Int
    private var batch: [Item] = []
    private var batchWeight = 0
    private let batchSize: Int
    /// How many items were handed on before the batch.
    private var handedOn = 0
    /// The batches in formatting, oldest first.
    private var pending: [FormattingBatch<Failure>] = []
    /// The text of the items formatted so far, and their number: a batch reserves room for its
    /// items' text at that mean, rather than growing and copying its text as it goes.
    private var bytesWritten = 0
    private var itemsWritten = 0

    /// How many batches may be in formatting while the caller waits for the oldest: one for
    /// each processor, and one more for a processor done before the caller took the oldest.
    private static var batchesInFlight: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) + 1 }

    /// A formatter that writes each item with `format`, which is given the item's position among
    /// all items (for a separator before all but the first). A batch is full when the weights of
    /// its items (one each unless told otherwise: a record weighs its operations) reach
    /// `batchSize`, so that it holds about as much text whatever the items' sizes.
    init(
        batchSize: Int = 512, weight: @escaping (Item) -> Int = { _ in 1 },
        format: @escaping @Sendable (Item, Int, inout [UInt8]) throws(Failure) -> Void
    ) {
        self.format = format
        self.weight = weight
        self.batchSize = batchSize
    }

    /// Adds an item; when the batch is full, hands it on to be formatted, and appends to `output`
    /// the text of the oldest batches while too many are in formatting.
    mutating func add(_ item: Item, to output: inout [UInt8]) throws(Failure) {
        batch.append(item)
        batchWeight += weight(item)
        guard batchWeight >= batchSize else { return }
        handOn()
        try append(to: &output, leaving: Self.batchesInFlight)
    }

    /// Appends the text of every item added so far to `output`, in order.
    mutating func drain(to output: inout [UInt8]) throws(Failure) {
        handOn()
        try append(to: &output, leaving: 0)
    }

    /// Starts formatting the batch on another thread.
    private mutating func handOn() {
        guard !batch.isEmpty else { return }
        let expected = itemsWritten == 0 ? 0 : batch.count * (bytesWritten / itemsWritten + 16)
        pending.append(FormattingBatch(batch, first: handedOn, expectedBytes: expected, format: format))
        handedOn += batch.count
        batchWeight = 0
        batch.removeAll(keepingCapacity: true)
    }

    /// Waits for the oldest batches until `leaving` are in formatting, appending their text.
    private mutating func append(to output: inout [UInt8], leaving: Int) throws(Failure) {
        while pending.count > leaving {
            let batch = pending.removeFirst()
            let (text, failure) = batch.result()
            bytesWritten += text.count
            itemsWritten += batch.count
            // Taken whole when nothing waits before it: a writer that writes out what it is
            // given at once then copies no text.
            if output.isEmpty { output = text } else { output += text }
            guard let failure else { continue }
            // The text after a failure is never written; its formatting is let finish first.
            for batch in pending { _ = batch.result() }
            pending.removeAll()
            throw failure
        }
    }
}

/// One batch's formatting on a thread of the system's pool, and its text once done.
private final class FormattingBatch<Failure: Error>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let outcome = Mutex<(text: [UInt8], failure: Failure?)>(([], nil))

    /// How many items the batch holds.
    let count: Int

    /// Starts formatting `items`, the first of which is at position `first` among all items,
    /// into a text with room for `expectedBytes`.
    init<Item: Sendable>(
        _ items: [Item], first: Int, expectedBytes: Int,
        format: @escaping @Sendable (Item, Int, inout [UInt8]) throws(Failure) -> Void
    ) {
        count = items.count
        DispatchQueue.global().async { [self] in
            var text: [UInt8] = []
            text.reserveCapacity(expectedBytes)
            var failure: Failure?
            do throws(Failure) {
                for (index, item) in items.enumerated() { try format(item, first + index, &text) }
            } catch {
                failure = error
            }
            self.outcome.withLock { [text, failure] in $0 = (text, failure) }
            self.done.signal()
        }
    }

    /// The batch's text, and the failure that ended it early; waits until it is formatted.
    /// Called once.
    func result() -> (text: [UInt8], failure: Failure?) {
        done.wait()
        return outcome.withLock { ($0.text, $0.failure) }
    }
}
