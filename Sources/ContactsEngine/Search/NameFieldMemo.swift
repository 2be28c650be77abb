import ContactsModel
import Foundation
import LedgerStorage

/// The name fields met lately, each with the entries and signature folding it gave, so that a
/// name many contacts share is folded once rather than once per contact: a bulk name build keeps
/// a field's word entries and start signature (``NameIndex/Builder/entry(for:)``), a scan the
/// bits of the query words the field's words start (``SearchScan``, `Entry` being `UInt64`).
///
/// People share names: given names above all, family names and organizations less. Folding a
/// field and finding its words cost the bulk build about half of its name half. A field is
/// looked for by its UTF-8 bytes, in a direct-mapped table (a field whose place another took
/// is folded again); what it gave stays valid for the whole build, since a builder never
/// changes or removes an id it gave. The table is emptied when what it keeps grows past a
/// bound, so its memory stays small whatever the contacts.
struct NameFieldMemo<Entry> {
    private struct Place {
        var hash: UInt64 = 0
        /// Where the field's bytes lie in `keys`.
        var key: Range<Int> = 0..<0
        /// Where its entries lie in `entries`.
        var entries: Range<Int> = 0..<0
        var signature: UInt32 = 0
        var isUsed = false
    }

    private var table: [Place]
    /// The bytes kept (fields' bytes, and entries at their stride, 12 bytes for a word entry)
    /// above which the memo starts again empty.
    private let keptBytesMax: Int
    private var keys: [UInt8] = []
    private var entries: [Entry] = []

    /// An empty memo of `places` fields (a power of two) that keeps at most about
    /// `keptBytesMax` bytes.
    init(places: Int = 4096, keptBytesMax: Int = 1 << 20) {
        precondition(places > 0 && places & (places - 1) == 0, "places must be a power of two")
        table = [Place](repeating: Place(), count: places)
        self.keptBytesMax = keptBytesMax
    }

    /// Appends the entries of a name field met before to `found`, and returns its signature;
    /// nil, appending nothing, for a field the memo does not hold.
    ///
    /// Mutating, though it changes nothing: the build passes the memo and `found`, two parts of
    /// one value, and a memo only read had been copied for the call (three retains and
    /// releases per field, about a fifteenth of the name thread's time in a bulk build).
    mutating func lookUp(
        _ field: UnsafeBufferPointer<UInt8>, hash: UInt64, appendingTo found: inout [Entry]
    ) -> UInt32? {
        let place = table[place(of: hash)]
        guard !field.isEmpty, place.isUsed, place.hash == hash, place.key.count == field.count else { return nil }
        let same = keys.withUnsafeBufferPointer { kept in
            memcmp(kept.baseAddress! + place.key.lowerBound, field.baseAddress!, field.count) == 0
        }
        guard same else { return nil }
        entries.withUnsafeBufferPointer { found.append(contentsOf: UnsafeBufferPointer(rebasing: $0[place.entries])) }
        return place.signature
    }

    /// Keeps what a name field gave, in place of whatever field held its place.
    mutating func remember(
        _ field: UnsafeBufferPointer<UInt8>, hash: UInt64, entries given: ArraySlice<Entry>,
        signature: UInt32
    ) {
        if keys.count + field.count + (entries.count + given.count) * MemoryLayout<Entry>.stride > keptBytesMax {
            keys.removeAll(keepingCapacity: true)
            entries.removeAll(keepingCapacity: true)
            for index in table.indices { table[index].isUsed = false }
        }
        let keyStart = keys.count
        keys.append(contentsOf: field)
        let entriesStart = entries.count
        entries.append(contentsOf: given)
        table[place(of: hash)] = Place(
            hash: hash, key: keyStart..<keys.count, entries: entriesStart..<entries.count, signature: signature,
            isUsed: true)
    }

    private func place(of hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash >> 32) & (table.count - 1)
    }
}
