import ContactsModel
import LedgerStorage

/// A contact's position in the store's dense table of contacts; the search indexes answer
/// with slots, and the store maps them back to contacts.
///
/// Slots below ``SearchIndexes/slotLimit`` can be indexed; the top half of the range is kept
/// for the indexes' own bookkeeping.
package typealias ContactSlot = UInt32
