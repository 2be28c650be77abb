import ContactsLedger
import Foundation

/// A value with a label and a stable identifier, like the framework's `CNLabeledValue`.
///
/// ``init(label:value:)`` makes a new identifier; ``settingLabel(_:)``, ``settingValue(_:)``
/// and ``settingLabel(_:value:)`` keep it, so a store can follow one phone number or address
/// through edits.
public final class CNLabeledValue<ValueType>: NSObject, NSCopying, @unchecked Sendable {
    /// The identifier, unique among the labeled values of the address book.
    public let identifier: String
    /// The label (a `CNLabel...` constant or any text), or nil.
    public let label: String?
    /// The value.
    public let value: ValueType

    /// Creates a labeled value with a new identifier.
    public convenience init(label: String?, value: ValueType) {
        self.init(identifier: LabeledValue(label: nil, value: 0).identifier, label: label, value: value)
    }

    /// A labeled value with an identifier that already exists.
    init(identifier: String, label: String?, value: ValueType) {
        self.identifier = identifier
        self.label = label
        self.value = value
    }

    /// Returns a copy with a new label and the same identifier and value.
    public func settingLabel(_ label: String?) -> CNLabeledValue<ValueType> {
        CNLabeledValue(identifier: identifier, label: label, value: value)
    }

    /// Returns a copy with a new value and the same identifier and label.
    public func settingValue(_ value: ValueType) -> CNLabeledValue<ValueType> {
        CNLabeledValue(identifier: identifier, label: label, value: value)
    }

    /// Returns a copy with a new label and value and the same identifier.
    public func settingLabel(_ label: String?, value: ValueType) -> CNLabeledValue<ValueType> {
        CNLabeledValue(identifier: identifier, label: label, value: value)
    }

    /// The display text of a framework label, or the label itself when it is custom.
    public class func localizedString(forLabel label: String) -> String {
        Label.localizedString(forLabel: label)
    }

    /// The labeled value itself: it is immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// Whether `object` is a labeled value with the same identifier, label and value.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CNLabeledValue<ValueType> else { return false }
        return identifier == other.identifier && label == other.label
            && ((value as? NSObject)?.isEqual(other.value) ?? false)
    }

    /// A hash of the identifier.
    public override var hash: Int { identifier.hashValue }
}

extension CNLabeledValue {
    /// The framework form of a native labeled value, its value converted by `convert`.
    convenience init<Native>(_ native: LabeledValue<Native>, _ convert: (Native) -> ValueType) {
        self.init(identifier: native.identifier, label: native.label, value: convert(native.value))
    }

    /// The native form, its value converted by `convert`, with the same identifier.
    func native<Native>(_ convert: (ValueType) -> Native) -> LabeledValue<Native> {
        LabeledValue(identifier: identifier, label: label, value: convert(value))
    }
}
