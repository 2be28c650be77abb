import Foundation

/// Random (version 4) UUIDs drawn from the system's random number generator.
///
/// Foundation's `UUID()` on Linux opens, reads and closes `/dev/urandom` on every call (about
/// 4.5 µs measured here, three system calls and a file descriptor), and a one-contact save makes
/// several: the request's id, the contact's, and one per labeled value.
/// `SystemRandomNumberGenerator` asks the kernel for the bytes with `getrandom(2)`, a single call
/// without a file. The result is the same kind of UUID: 122 random bits, version 4, RFC 4122
/// variant.
public enum RandomUUID {
    /// A new random UUID.
    public static func make() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var bytes = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // variant 10xx (RFC 4122)
            return UUID(
                uuid: (
                    raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7], raw[8], raw[9], raw[10], raw[11],
                    raw[12], raw[13], raw[14], raw[15]
                ))
        }
    }

    /// A new random UUID's canonical upper-case text, as `UUID().uuidString` gives it.
    public static func makeString() -> String { make().uuidString }
}
