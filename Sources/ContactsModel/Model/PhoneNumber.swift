import LedgerStorage

/// A phone number as the person typed it, like the framework's `CNPhoneNumber`.
///
/// The text is kept exactly as given (spaces, punctuation, letters and all); the framework
/// offers no normalized form either. Matching by digits is the business of the search index.
public struct PhoneNumber: Sendable, Hashable {
    /// The phone number as text, exactly as given.
    public let stringValue: String

    /// Creates a phone number from its text.
    public init(stringValue: String) {
        self.stringValue = stringValue
    }

    /// The decimal digits of the number in order, as ASCII, with a `+` kept when it comes
    /// before the first digit.
    ///
    /// Digits of any script count (Arabic-Indic "٣" becomes "3", full-width "３" too), so
    /// that numbers typed on differently set up keyboards compare equal; superscripts and
    /// other non-decimal numerals do not. Letters (vanity numbers such as 1-800-FLOWERS) are
    /// dropped, not translated.
    package var digits: String {
        var result = ""
        var seenPlus = false
        for scalar in stringValue.unicodeScalars {
            if scalar == "+", result.isEmpty, !seenPlus {
                result.append("+")
                seenPlus = true
            } else if scalar.properties.numericType == .decimal,
                let value = scalar.properties.numericValue
            {
                result.append(String(Int(value)))
            }
        }
        return result == "+" ? "" : result
    }
}
