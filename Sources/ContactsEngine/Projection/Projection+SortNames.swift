import ContactsModel
import LedgerStorage

/// The text of the fields a sort orders contacts by, numbered: names repeat across an address
/// book, so each distinct text is made a string, folded and compared once, and each contact is
/// ordered by numbers.
package struct SortNames: Sendable {
    /// Each distinct text met, by its number; number 0 is the empty text, which a missing field
    /// has too.
    package let texts: [String]
    /// The numbers of each contact's fields, as many per contact as fields were asked for, in
    /// the order of ``slots``.
    package let numbers: [UInt32]
    /// The occupied slots of those asked for, in the order asked.
    package let slots: [ContactSlot]
}

extension Projection {
    /// The text of `keys` (string keys) in the contacts of the occupied slots of `slots`, read
    /// from their encoded values without decoding them: the sort of a listing of every contact
    /// would otherwise decode each contact's names into strings and hash every one of them.
    package func sortNames(of slots: [ContactSlot], keys: [ContactKey]) -> SortNames {
        let fields = keys.map { ContactCodec.fieldNumber(ofString: $0) }
        var table = ByteStringTable()
        _ = table.findOrInsert(UnsafeBufferPointer(start: nil, count: 0))
        var numbers: [UInt32] = []
        numbers.reserveCapacity(slots.count * keys.count)
        var occupied: [ContactSlot] = []
        occupied.reserveCapacity(slots.count)
        for slot in slots {
            guard let record = contacts.record(at: slot) else { continue }
            occupied.append(slot)
            contacts.withEncoded(record) { encoded in
                let ranges = Self.lastValues(of: fields, in: encoded)
                for index in fields.indices {
                    numbers.append(table.findOrInsert(UnsafeBufferPointer(rebasing: encoded[ranges[index]])).id)
                }
            }
        }
        let texts = (0..<table.count).map { id in
            table.withBytes(of: UInt32(id)) { String(decoding: $0, as: UTF8.self) }
        }
        return SortNames(texts: texts, numbers: numbers, slots: occupied)
    }

    /// The identifier of the contact in an occupied slot as the 16 bytes of a UUID, when it is
    /// kept so (the canonical upper-case text of a UUID): two such identifiers' bytes compare
    /// as their text does, since the text writes each byte as two upper-case hexadecimal digits
    /// in order. Nil for an identifier kept as text, and for a free slot.
    package func identifierUUID(at slot: ContactSlot) -> UInt128? {
        guard let record = contacts.record(at: slot), record.identifierIsUUID else { return nil }
        return contacts.withIdentifier(record) { bytes in
            guard bytes.count == 16 else { return nil }
            let raw = UnsafeRawBufferPointer(bytes)
            let high = UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self))
            let low = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            return UInt128(high) << 64 | UInt128(low)
        }
    }

    /// The ranges of the last value of each field in an encoded contact, as decoding keeps them;
    /// an empty range for a field it does not hold. The bytes were checked when the contact was
    /// stored, so a failure to read them is a broken arena.
    private static func lastValues(
        of fields: [UInt32], in encoded: UnsafeBufferPointer<UInt8>
    ) -> InlineArray<4, Range<Int>> {
        do throws(EventDecodingError) {
            return try ContactCodec.lastValues(of: fields, in: encoded)
        } catch {
            preconditionFailure("projection holds a contact it cannot read: \(error)")
        }
    }
}
