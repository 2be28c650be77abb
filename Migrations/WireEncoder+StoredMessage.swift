import LedgerStorage

extension WireEncoder {
    /// Encodes a whole message.
    public static func encode(_ message: StoredMessage) -> [UInt8] {
        var encoder = WireEncoder(capacity: message.entries.count * 8)
        encoder.append(message)
        return encoder.finish()
    }

    /// Appends a nested message given in stored form.
    public mutating func appendMessage(field: UInt32, _ message: StoredMessage) {
        appendMessage(field: field) { encoder in encoder.append(message) }
    }

    /// Appends every field of a stored message, in order.
    public mutating func append(_ message: StoredMessage) {
        for entry in message.entries {
            switch entry.value {
            case .varint(let value): appendVarint(field: entry.field, value: value)
            case .bytes(let bytes): appendBytes(field: entry.field, bytes: bytes)
            }
        }
    }
}
