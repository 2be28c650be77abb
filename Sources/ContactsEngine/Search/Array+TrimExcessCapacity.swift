import ContactsModel
import LedgerStorage

extension Array {
    /// Gives back capacity an array's doubling left unused, keeping an eighth for growth, when
    /// the unused part is worth a copy (over `unusedBytesMin`). Indexes call it from
    /// ``SearchIndexes/prepareForQueries()``: after a replay a third of some arrays is unused.
    mutating func trimExcessCapacity(unusedBytesMin: Int = 64 << 10) {
        let wanted = count + count / 8
        guard (capacity - wanted) * MemoryLayout<Element>.stride > unusedBytesMin else { return }
        self = [Element](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            HugePages.advise(buffer)
            initialized = withUnsafeBufferPointer { source in
                _ = buffer.initialize(fromContentsOf: source)
                return source.count
            }
        }
    }
}
