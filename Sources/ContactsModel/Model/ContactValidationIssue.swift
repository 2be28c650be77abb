import LedgerStorage

/// One reason a contact cannot be saved, naming the property by its key path.
///
/// The key path names the value as the framework's validation errors do
/// (`CNErrorUserInfoKeyPathsKey`): a property (`birthday`) or one element of a labeled
/// property (`dates[2].value`, `emailAddresses[0].value`).
public struct ContactValidationIssue: Sendable, Hashable, CustomStringConvertible {
    /// The key of the property that holds the invalid value.
    public let key: ContactKey
    /// The key path of the invalid value, such as `birthday` or `dates[2].value`.
    public let keyPath: String
    /// What is wrong, in one sentence fragment, such as "day 30 is not a day of month 2".
    public let message: String

    /// Creates an issue; only validation does this.
    package init(key: ContactKey, keyPath: String, message: String) {
        self.key = key
        self.keyPath = keyPath
        self.message = message
    }

    /// The key path and the message, such as `birthday: a day is required`.
    public var description: String {
        "\(keyPath): \(message)"
    }
}
