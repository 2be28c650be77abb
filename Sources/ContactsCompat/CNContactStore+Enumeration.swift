import ContactsLedger
import Foundation

// The one file of this module that names a pointer type: the framework's enumeration block
// takes `UnsafeMutablePointer<ObjCBool>` for its stop flag, and code written for the framework
// sets `stop.pointee = true`, so the signature keeps it (decision 0028). The pointer lives only
// for the call of the block.

extension CNContactStore {
    /// Calls `block` with each contact the request selects, in its order, until the block sets
    /// `stop.pointee` to true; calls it not at all when nothing matches. The contacts are those
    /// of one state, and the block may fetch or save through the store.
    public func enumerateContacts(
        with fetchRequest: CNContactFetchRequest,
        usingBlock block: (CNContact, UnsafeMutablePointer<ObjCBool>) -> Void
    ) throws {
        var stop: ObjCBool = false
        for contact in try contacts(for: fetchRequest) {
            withUnsafeMutablePointer(to: &stop) { block(contact, $0) }
            if stop.boolValue { return }
        }
    }
}
