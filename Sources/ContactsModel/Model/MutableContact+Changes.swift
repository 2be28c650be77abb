import LedgerStorage

extension MutableContact {
    /// Whether no store has saved this contact yet: it was made by `MutableContact()`, not
    /// copied from a fetched contact.
    package var isNew: Bool {
        base == nil
    }

    /// The keys whose values differ from the values this contact started from, among the
    /// available writable keys.
    ///
    /// A new contact starts from an empty one, so its changed keys are those set to anything
    /// but the default. The identifier and the two image-derived keys are never included:
    /// the identifier cannot change and the derived keys change only through
    /// ``ContactKey/imageData``. A store saves exactly these keys, so it never overwrites a
    /// key the caller was not given.
    package var changedKeys: ContactKeySet {
        values.keys(
            differingFrom: base ?? ContactValues(),
            among: availableKeys.intersection(.writable))
    }
}
