import ContactsModel
import LedgerMigrations
import LedgerStorage

/// Reading only what the search indexes need from an encoded contact, without decoding it.
extension ContactCodec {
    /// What the search indexes read of a contact, as it is met in an encoded Contact message.
    enum IndexedField {
        /// A name field's text (see ``SearchFolding/forEachNameField(of:_:)`` for which).
        case name
        /// An email address's value.
        case email
        /// A phone number's value.
        case phone
    }

    /// Calls `body` with the UTF-8 bytes of every name field, email address and phone number
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
        typealias Field = EventSchema.ContactField
        // The last value of each name field, by field number (2 to 20); empty for none.
        var names = InlineArray<19, Range<Int>>(repeating: 0..<0)
        var reader = PayloadReader(wire: WireReader(unsafeBuffer: bytes))
        while !reader.isAtEnd {
            let key = try reader.nextKey()
            guard let field = Field(rawValue: key.field) else {
                try reader.skip(key)
                continue
            }
            switch field {
            case .namePrefix, .givenName, .middleName, .familyName, .previousFamilyName, .nameSuffix, .nickname,
                .phoneticGivenName, .phoneticMiddleName, .phoneticFamilyName, .organizationName,
                .phoneticOrganizationName:
                // A string's bytes, read as a nested message's: the reader is only asked where they lie.
                names[Int(field.rawValue) - 2] = try reader.nested(key).remainingRange
            case .emailAddresses, .phoneNumbers:
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
                if !value.isEmpty {
                    body(field == .emailAddresses ? .email : .phone, UnsafeBufferPointer(rebasing: bytes[value]))
                }
            default:
                try reader.skip(key)
            }
        }
        for index in names.indices where !names[index].isEmpty {
            body(.name, UnsafeBufferPointer(rebasing: bytes[names[index]]))
        }
    }
}
