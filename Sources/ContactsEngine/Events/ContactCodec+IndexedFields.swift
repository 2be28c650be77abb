import ContactsModel
import LedgerMigrations
import LedgerStorage

/// Reading only what the search indexes need from an encoded contact, without decoding it.
extension ContactCodec {
    /// What the search indexes read of a contact, as it is met in an encoded Contact message: a
    /// searched name field's text, an email address's value or a phone number's value.
    typealias IndexedField = ContactKeySearch

    /// Calls `body` with the UTF-8 bytes of every searched name field, email address and phone number
    /// of an encoded Contact message, without building strings or values: each is a part of
    /// `bytes`, never a copy (the bulk index build hands on where addresses lie by their offset
    /// in it). Name fields come after the addresses and numbers.
    ///
    /// A bulk index build reads a million contacts this way (decision 0009): decoding each into
    /// a ``ContactValues`` allocated a string per field and an array per labeled property. What
    /// it reports is what ``decode(_:)`` would give: a field written twice counts once, with its
    /// last value, and empty fields are left out. Throws when the message is malformed where it
    /// is read; fields the indexes do not need are skipped unchecked.
    static func forEachIndexedField(
        in bytes: UnsafeBufferPointer<UInt8>,
        _ body: (IndexedField, UnsafeBufferPointer<UInt8>) -> Void
    ) throws(EventDecodingError) {
        // The last value of each searched name field, by its place among them in field order;
        // empty for none.
        var names = Fields.NameRanges(repeating: 0..<0)
        var reader = PayloadReader(wire: WireReader(unsafeBuffer: bytes))
        while !reader.isAtEnd {
            let key = try reader.nextKey()
            guard let field = fields.numbered(key.field), let search = field.search else {
                try reader.skip(key)
                continue
            }
            if let nameIndex = field.nameIndex {
                // A string's bytes, read as a nested message's: the reader is only asked where they lie.
                names[nameIndex] = try reader.nested(key).remainingRange
                continue
            }
            var nested = try reader.nested(key)
            var value = 0..<0
            while !nested.isAtEnd {
                let inner = try nested.nextKey()
                if inner.field == EventSchema.LabeledValueField.value.rawValue {
                    value = try nested.nested(inner).remainingRange
                } else {
                    try nested.skip(inner)
                }
            }
            if !value.isEmpty { body(search, UnsafeBufferPointer(rebasing: bytes[value])) }
        }
        for index in names.indices where !names[index].isEmpty {
            body(.name, UnsafeBufferPointer(rebasing: bytes[names[index]]))
        }
    }
}
