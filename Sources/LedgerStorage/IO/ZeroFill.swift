/// The scan for the zeros a writer fills ahead of its records, a word at a time.
extension RecordFrame {
    /// Whether `bytes` from `start` to the end are all zero: the space a writer fills ahead of
    /// its records, which no frame can look like (a frame's length is never 0).
    ///
    /// The first frame header's bytes are looked at before the rest, so a record costs this one
    /// comparison.
    static func isZeroFill(_ bytes: [UInt8], from start: Int) -> Bool {
        bytes.withUnsafeBytes { raw in
            let count = raw.count
            var position = start
            let head = min(count, start + frameHeaderBytes)
            while position < head {
                if raw[position] != 0 { return false }
                position += 1
            }
            while position + 8 <= count {
                if raw.loadUnaligned(fromByteOffset: position, as: UInt64.self) != 0 { return false }
                position += 8
            }
            while position < count {
                if raw[position] != 0 { return false }
                position += 1
            }
            return true
        }
    }

}
