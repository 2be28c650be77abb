import ContactsModel
import LedgerMigrations
import LedgerStorage

/// Applying an update to an encoded contact without decoding it.
extension ContactCodec {
    /// The fields a Contact message of every key starts with: its key set.
    private static let allKeysPrefix = encode(ContactValues(), keys: .all)

    /// Writes into `merged` the Contact message of every key that updating the contact encoded
    /// in `current` (a Contact message of every key) with `update` (a Contact message of `keys`)
    /// makes: the fields of the keys in `keys` from `update`, every other field from `current`,
    /// in field order. It decodes to what decoding both, copying `keys` from the update and
    /// encoding the result (``ContactValues/copyValue(for:from:)``, ``encode(_:keys:)``)
    /// decodes to, and is byte for byte that encoding when both messages are as the encoder
    /// writes them.
    ///
    /// Returns false when a message has a field this schema does not know or its fields are not
    /// in field order (no encoder of this schema writes either); the caller then decodes. Both
    /// messages must have been checked (they are the projection's own bytes and a decoded
    /// record's); a malformed one also gives false.
    static func mergeUpdate(
        current: UnsafeBufferPointer<UInt8>, update: UnsafeBufferPointer<UInt8>, keys: ContactKeySet,
        into merged: inout [UInt8]
    ) -> Bool {
        merged.removeAll(keepingCapacity: true)
        merged.append(contentsOf: allKeysPrefix)
        var old = FieldCursor(current)
        var new = FieldCursor(update)
        while true {
            guard let oldField = old.field, let newField = new.field else { return false }
            if oldField == FieldCursor.end && newField == FieldCursor.end { return true }
            // The lower field number goes first, the current message's on a tie: a field of a
            // kept key comes from it, a field of an updated key from the update.
            if oldField <= newField {
                if !updates(oldField, keys) {
                    merged.append(contentsOf: UnsafeBufferPointer(rebasing: current[old.range]))
                }
                old.advance()
            } else {
                if updates(newField, keys) {
                    merged.append(contentsOf: UnsafeBufferPointer(rebasing: update[new.range]))
                }
                new.advance()
            }
        }
    }

    /// Whether an update of `keys` replaces the values of a field (the image data belongs to
    /// each of the three image keys).
    private static func updates(_ field: UInt32, _ keys: ContactKeySet) -> Bool {
        guard let known = fields.numbered(field) else { return false }
        return known.writtenBits & keys.rawValue != 0
    }

    /// Steps through the fields of a Contact message, after its key set, checking that field
    /// numbers are known and do not decrease.
    private struct FieldCursor {
        /// The field number after the last field.
        static let end = UInt32.max
        private var reader: PayloadReader
        /// The current field's number, ``end`` after the last, nil when the message is not
        /// as the encoder writes it.
        private(set) var field: UInt32?
        /// The current field's bytes, its key included.
        private(set) var range: Range<Int> = 0..<0

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            reader = PayloadReader(wire: WireReader(unsafeBuffer: bytes))
            field = 0
            advance()
        }

        mutating func advance() {
            guard let previous = field, previous != Self.end else { return }
            do throws(EventDecodingError) {
                while true {
                    if reader.isAtEnd {
                        field = Self.end
                        return
                    }
                    let key = try reader.nextKey()
                    try reader.skip(key)
                    if key.field == EventSchema.ContactField.keys.rawValue { continue }
                    guard fields.numbered(key.field) != nil, key.field >= previous else {
                        field = nil
                        return
                    }
                    field = key.field
                    range = key.offset..<reader.offset
                    return
                }
            } catch {
                field = nil
            }
        }
    }
}
