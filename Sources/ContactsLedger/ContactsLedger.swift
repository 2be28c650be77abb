/// ContactsLedger: the Contacts framework's model of an address book, kept as an event-sourced ledger.
///
/// The store sits on the model (``ContactsModel``), vCard and JSON (``ContactsInterchange``) and
/// the storage layer (``LedgerStorage``); this module re-exports them so that a caller names
/// contacts, vCards, head digests and storage errors with one import.
@_exported import ContactsInterchange
@_exported import ContactsModel
@_exported import LedgerStorage
