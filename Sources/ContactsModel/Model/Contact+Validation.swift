import LedgerStorage

extension MutableContact {
    /// Returns the reasons this contact cannot be saved, or an empty array when it can.
    ///
    /// Only available keys are checked, and of those only the ones given: a save request
    /// passes ``changedKeys`` when it updates a contact, so that a value stored before a rule
    /// existed does not block an unrelated edit. The rules are those of
    /// ``ContactValues/validationIssues(for:)``.
    package func validate(keys: ContactKeySet = .all) -> [ContactValidationIssue] {
        values.validationIssues(for: availableKeys.intersection(keys))
    }
}

extension Contact {
    /// Returns the reasons this contact could not be saved, or an empty array when it could,
    /// by the rules of ``ContactValues/validationIssues(for:)`` over its available keys.
    package func validate(keys: ContactKeySet = .all) -> [ContactValidationIssue] {
        values.validationIssues(for: availableKeys.intersection(keys))
    }
}
