import ContactsModel
import LedgerStorage

/// Reading a few string fields' bytes from an encoded contact, without decoding it.
extension ContactCodec {
    /// The most fields ``lastValues(of:in:)`` reads at once.
    static let lastValuesLimit = 4

    /// Where the last value of each field lies in an encoded Contact message, as decoding keeps
    /// it (a field written twice counts with its last value); an empty range for a field the
    /// message does not hold. `fields` are the field numbers of string keys
    /// (``fieldNumber(ofString:)``), at most ``lastValuesLimit``. Fields not asked for are
    /// skipped unchecked.
    static func lastValues(
        of fields: [UInt32], in bytes: UnsafeBufferPointer<UInt8>
    ) throws(EventDecodingError) -> InlineArray<4, Range<Int>> {
        precondition(fields.count <= lastValuesLimit, "more fields than lastValues reads")
        var ranges = InlineArray<4, Range<Int>>(repeating: 0..<0)
        var reader = PayloadReader(wire: WireReader(unsafeBuffer: bytes))
        while !reader.isAtEnd {
            let key = try reader.nextKey()
            guard let index = fields.firstIndex(of: key.field) else {
                try reader.skip(key)
                continue
            }
            // A string's bytes, read as a nested message's: the reader is only asked where they lie.
            ranges[index] = try reader.nested(key).remainingRange
        }
        return ranges
    }

    /// The field number of a string key's values in a Contact message.
    static func fieldNumber(ofString key: ContactKey) -> UInt32 {
        guard let field = fields.inOrder.first(where: { $0.key == key }), field.kind == .string else {
            preconditionFailure("\(key) is not a string key of a Contact message")
        }
        return field.number
    }
}
