import LedgerStorage

/// A set of contact keys stored as a bit set, for cheap availability checks.
///
/// Write one as an option set, with the static member each key has
/// (`let keys: ContactKeySet = [.givenName, .familyName]`), or build one from keys
/// (`ContactKeySet(someKeys)`); combine sets with the `SetAlgebra` operations, and test a
/// single key with `contains(_:)`. Bit positions are fixed per key, so a stored set keeps its
/// meaning across versions.
public struct ContactKeySet: OptionSet, Sendable, Hashable {
    /// The bits of the set, one fixed bit position per key.
    public let rawValue: UInt64

    /// Creates a set from its bits, dropping any bit that names no key.
    @inlinable
    public init(rawValue: UInt64) {
        self.rawValue = rawValue & Self.allBits
    }

    /// Creates a set holding one key.
    @inlinable
    public init(_ key: ContactKey) {
        self.rawValue = 1 << UInt64(key.bitIndex)
    }

    /// Creates a set holding the given keys.
    public init(_ keys: some Sequence<ContactKey>) {
        var bits: UInt64 = 0
        for key in keys {
            bits |= 1 << UInt64(key.bitIndex)
        }
        self.rawValue = bits
    }

    /// Creates the union of the keys named by the given descriptors.
    ///
    /// Inlinable so that a fetch's array of descriptors is read as an array, not through the
    /// sequence's witnesses: every fetch makes one.
    @inlinable
    public init(descriptors: some Sequence<any KeyDescriptor>) {
        var set = ContactKeySet()
        for descriptor in descriptors {
            set.formUnion(descriptor.contactKeys)
        }
        self = set
    }

    /// The bits below ``ContactKey/bitIndexEnd``, one per key (`ContactKeyTests` checks them
    /// against the keys). Computed from a literal, so that it needs no lazy initialization: every
    /// ``init(rawValue:)`` reads it, and a replay makes millions of sets.
    @usableFromInline static var allBits: UInt64 { (1 << UInt64(ContactKey.bitIndexEnd)) - 1 }

    /// Every contact key.
    public static let all = ContactKeySet(rawValue: allBits)

    /// The keys a ``MutableContact`` can set: all but the identifier and the derived image keys.
    public static let writable = ContactKeySet(ContactKey.allCases.filter(\.isWritable))

    /// The keys whose values come from the stored image data.
    /// (Bits 27 to 29, a literal for the reason ``allBits`` is computed from one; checked by the same tests.)
    package static let image = ContactKeySet(rawValue: 0b111 << 27)

    /// Whether the set holds the given key.
    @inlinable
    public func contains(_ key: ContactKey) -> Bool {
        rawValue & (1 << UInt64(key.bitIndex)) != 0
    }

    /// Adds a key to the set.
    @inlinable
    public mutating func insert(_ key: ContactKey) {
        formUnion(ContactKeySet(key))
    }

    /// Removes a key from the set.
    @inlinable
    public mutating func remove(_ key: ContactKey) {
        subtract(ContactKeySet(key))
    }

    /// The keys in the set, in the order of ``ContactKey/allCases``.
    public var keys: [ContactKey] {
        ContactKey.allCases.filter(contains)
    }

    /// The number of keys in the set.
    public var count: Int {
        rawValue.nonzeroBitCount
    }
}

extension ContactKeySet: CustomStringConvertible {
    /// The key strings of the set, for example `[givenName, familyName]`.
    public var description: String {
        "[" + keys.map(\.rawValue).joined(separator: ", ") + "]"
    }
}
