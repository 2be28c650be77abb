import Foundation
import LedgerStorage

/// A value with an optional label and a stable identifier, such as a home phone number.
///
/// The identifier is made once, by ``init(label:value:)``, and survives ``settingLabel(_:)``,
/// ``settingValue(_:)`` and ``settingLabel(_:value:)``, so a store and its change history can
/// follow one phone number or address through edits. Labels are free text; the standard ones
/// are the constants of ``Label``.
public struct LabeledValue<Value: Sendable & Hashable>: Sendable, Hashable {
    /// The identifier, unique among the labeled values of the address book.
    public let identifier: String
    /// The label, a ``Label`` constant or any custom text, or nil for none.
    public let label: String?
    /// The value.
    public let value: Value

    /// Creates a labeled value with a new identifier.
    public init(label: String?, value: Value) {
        self.init(identifier: NewIdentifier.make(), label: label, value: value)
    }

    /// Creates a labeled value with an identifier that already exists, when a store, a decoder
    /// or a layer over the model (the framework's names, in ContactsCompat) rebuilds one.
    /// Inlinable, so that a decoder in another module builds the labeled values of a concrete
    /// type without looking up generic metadata for each one.
    @inlinable
    public init(identifier: String, label: String?, value: Value) {
        self.identifier = identifier
        self.label = label
        self.value = value
    }

    /// Returns a copy with a new label and the same identifier and value.
    @inlinable
    public func settingLabel(_ label: String?) -> LabeledValue {
        LabeledValue(identifier: identifier, label: label, value: value)
    }

    /// Returns a copy with a new value and the same identifier and label.
    @inlinable
    public func settingValue(_ value: Value) -> LabeledValue {
        LabeledValue(identifier: identifier, label: label, value: value)
    }

    /// Returns a copy with a new label and value and the same identifier.
    @inlinable
    public func settingLabel(_ label: String?, value: Value) -> LabeledValue {
        LabeledValue(identifier: identifier, label: label, value: value)
    }

    /// Returns the display text of a standard label, or the label itself when it is custom.
    ///
    /// This forwards to ``Label/localizedString(forLabel:)``, which can be called without
    /// naming a value type.
    public static func localizedString(forLabel label: String) -> String {
        Label.localizedString(forLabel: label)
    }
}
