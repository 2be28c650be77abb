/// ContactsLedger: the Contacts framework's model of an address book, kept as an event-sourced ledger.
///
/// The storage layer underneath is ``LedgerStorage``; this module re-exports it so that callers
/// can name head digests and storage errors without a second import.
@_exported import LedgerStorage
