import ContactsModel
import LedgerMigrations
import LedgerStorage

/// Why a journal payload could not be decoded into a ``LedgerEvent``: what is wrong, in which
/// field, and at which byte.
///
/// `field` is the path from the top of the event to the field being read, by the schema's names,
/// such as `operations[0].addContact.values.phoneNumbers[1].label`; it is empty when the problem
/// is in the top-level message itself. `offset` is the position in the payload where reading
/// stopped (a key, a length, a value, or the start of a message that is wrong as a whole).
package struct EventDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    package enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// The bytes are not a well-formed message at all.
        case wireFormat(WireFormatError.Reason)
        /// A known field has the other wire type.
        case wrongWireType(expected: WireType, found: WireType)
        /// An enumeration, a Boolean, a key set or an integer holds a value out of its range.
        case invalidValue(UInt64)
        /// A date names a calendar this build does not know.
        case unknownCalendar(String)
        /// A date names a time zone this system does not know.
        case unknownTimeZone(String)
        /// An operation message holds none of the operation fields this version knows.
        case operationWithoutKind
        /// An operation message holds more than one operation.
        case operationWithSeveralKinds
        /// A contact message holds a value for a key outside its key set.
        case valueOutsideKeySet
        /// An update's old and new values were written for different key sets.
        case keySetsDiffer(old: UInt64, new: UInt64)
        /// The schema version cannot be brought to the current one.
        case migration(MigrationError)
        /// A field that holds an identifier as UUID bytes does not hold exactly 16 bytes.
        case notAUUID
        /// A standard label number that the label table does not hold.
        case unknownStandardLabel(UInt64)

        /// The reason in words.
        package var description: String {
            switch self {
            case .wireFormat(let reason): "\(reason)"
            case .wrongWireType(let expected, let found): "wire type is \(found), expected \(expected)"
            case .invalidValue(let value): "value \(value) is out of range"
            case .unknownCalendar(let name): "unknown calendar \"\(name)\""
            case .unknownTimeZone(let name): "unknown time zone \"\(name)\""
            case .operationWithoutKind: "operation holds no known kind of operation"
            case .operationWithSeveralKinds: "operation holds more than one kind of operation"
            case .valueOutsideKeySet: "value for a key outside the contact's key set"
            case .keySetsDiffer(let old, let new):
                "old values are for keys \(ContactKeySet(rawValue: old)), new ones for \(ContactKeySet(rawValue: new))"
            case .migration(let error): "\(error)"
            case .notAUUID: "identifier bytes are not the 16 bytes of a UUID"
            case .unknownStandardLabel(let number): "standard label number \(number) is unknown"
            }
        }
    }

    /// What is wrong.
    package var reason: Reason
    /// The path of the field being read, by the schema's names; empty for the event message.
    package var field: String
    /// The payload offset where reading stopped; nil when the problem is not at one place.
    package var offset: Int?
    /// The schema version the payload was upcast from when the problem was found in the upcast
    /// event; its offsets then refer to the upcast event's encoding, not to the stored bytes.
    package var upcastFrom: UInt16?

    /// Creates an error.
    package init(_ reason: Reason, field: String = "", offset: Int?, upcastFrom: UInt16? = nil) {
        self.reason = reason
        self.field = field
        self.offset = offset
        self.upcastFrom = upcastFrom
    }

    /// Creates an error from a wire format error, at its offset.
    package init(_ error: WireFormatError) {
        self.init(.wireFormat(error.reason), offset: error.offset)
    }

    /// The same error seen from the enclosing message, whose field `component` holds it.
    func within(_ component: String) -> EventDecodingError {
        var copy = self
        copy.field = field.isEmpty ? component : component + "." + field
        return copy
    }

    /// The reason, the field and the offset, in one line.
    package var description: String {
        var text = "cannot decode event: \(reason)"
        if !field.isEmpty { text += " in field \(field)" }
        if let offset { text += " at byte \(offset)" }
        if let upcastFrom { text += " of the event as upcast from schema version \(upcastFrom)" }
        return text
    }
}
