import Foundation
import LedgerStorage

/// The standard labels of labeled values, as string constants.
///
/// Each constant is named after the framework's `CNLabel…` constant without the `CNLabel`
/// prefix and with a lowercase first letter: `CNLabelHome` is `Label.home`,
/// `CNLabelPhoneNumberMobile` is `Label.phoneNumberMobile`, and
/// `CNLabelContactRelationMother` is `Label.contactRelationMother`. Labels stay plain strings,
/// as in the framework, because any custom text is a valid label too.
///
/// The raw strings are the ones Apple programs store and write into vCards (`X-ABLabel`), so
/// labels survive a round trip to and from Apple devices. Where no source shows the raw
/// string, the constant's documentation says that it is inferred.
///
/// A program that also imports SwiftUI, which has its own `Label`, writes
/// `ContactsLedger.Label`.
public enum Label {
    /// The label for a home value (raw value observed in Apple exports).
    public static let home = "_$!<Home>!$_"
    /// The label for a work value (raw value observed in Apple exports).
    public static let work = "_$!<Work>!$_"
    /// The label for a school value (raw value inferred from the `_$!<Name>!$_` pattern).
    public static let school = "_$!<School>!$_"
    /// The label for any other value (raw value observed in Apple exports).
    public static let other = "_$!<Other>!$_"
    /// The label for an iCloud email address (raw value observed in Apple exports).
    public static let emailiCloud = "iCloud"
    /// The label for a home page URL (raw value observed in Apple exports).
    public static let urlAddressHomePage = "_$!<HomePage>!$_"
    /// The label for an anniversary date (raw value observed in Apple exports).
    public static let dateAnniversary = "_$!<Anniversary>!$_"
    /// The label for an iPhone number (raw value observed in Apple exports).
    public static let phoneNumberiPhone = "iPhone"
    /// The label for an Apple Watch number (raw value unverified; inferred from the
    /// `_$!<Name>!$_` pattern).
    public static let phoneNumberAppleWatch = "_$!<AppleWatch>!$_"
    /// The label for a mobile number (raw value observed in Apple exports).
    public static let phoneNumberMobile = "_$!<Mobile>!$_"
    /// The label for a main number (raw value observed in Apple exports).
    public static let phoneNumberMain = "_$!<Main>!$_"
    /// The label for a home fax number (raw value observed in Apple exports).
    public static let phoneNumberHomeFax = "_$!<HomeFAX>!$_"
    /// The label for a work fax number (raw value observed in Apple exports).
    public static let phoneNumberWorkFax = "_$!<WorkFAX>!$_"
    /// The label for another fax number (raw value observed in Apple exports).
    public static let phoneNumberOtherFax = "_$!<OtherFAX>!$_"
    /// The label for a pager number (raw value observed in Apple exports).
    public static let phoneNumberPager = "_$!<Pager>!$_"

    /// Every standard label that is not a contact relation label, in the framework's order.
    public static let generalLabels: [String] = [
        home, work, school, other, emailiCloud, urlAddressHomePage, dateAnniversary,
        phoneNumberiPhone, phoneNumberAppleWatch, phoneNumberMobile, phoneNumberMain,
        phoneNumberHomeFax, phoneNumberWorkFax, phoneNumberOtherFax, phoneNumberPager,
    ]

    /// Every standard label: the general labels followed by the contact relation labels.
    public static let allLabels: [String] = generalLabels + contactRelationLabels

    /// Returns the English display text of a standard label, or the label itself when it is
    /// custom.
    ///
    /// General labels read as Apple's Contacts app shows them in English ("home", "mobile",
    /// "iPhone", "home fax", "homepage"). A relation label's text is derived from its name:
    /// the words split at capital letters and lowercased, a word ending in "s" before the last
    /// word read as a possessive, "in law" joined as "-in-law" and a leading "co" joined with
    /// a hyphen; so `ElderCousinMothersSiblingsDaughter` reads "elder cousin mother's
    /// sibling's daughter" and `CoFatherInLaw` reads "co-father-in-law". The text is English
    /// only: this package carries no localization tables.
    public static func localizedString(forLabel label: String) -> String {
        displayTexts[label] ?? label
    }

    private static let generalDisplayTexts: [String: String] = [
        home: "home", work: "work", school: "school", other: "other", emailiCloud: "iCloud",
        urlAddressHomePage: "homepage", dateAnniversary: "anniversary",
        phoneNumberiPhone: "iPhone", phoneNumberAppleWatch: "Apple Watch",
        phoneNumberMobile: "mobile", phoneNumberMain: "main", phoneNumberHomeFax: "home fax",
        phoneNumberWorkFax: "work fax", phoneNumberOtherFax: "other fax",
        phoneNumberPager: "pager",
    ]

    private static let displayTexts: [String: String] = {
        var texts = generalDisplayTexts
        for label in contactRelationLabels {
            texts[label] = relationDisplayText(forLabel: label)
        }
        return texts
    }()

    /// The English text of a relation label, derived from the name between `_$!<` and `>!$_`.
    static func relationDisplayText(forLabel label: String) -> String {
        let name = label.dropFirst("_$!<".count).dropLast(">!$_".count)
        var words: [String] = []
        for character in name {
            if character.isUppercase || words.isEmpty {
                words.append(String(character).lowercased())
            } else {
                words[words.count - 1].append(character)
            }
        }
        // In these names every word ending in "s" that is not the last word is a possessive:
        // MothersBrother is the mother's brother (checked against the whole list in tests).
        for index in words.indices.dropLast() where words[index].hasSuffix("s") {
            words[index] = words[index].dropLast() + "'s"
        }
        var text = words.joined(separator: " ")
        text = text.replacingOccurrences(of: " in law", with: "-in-law")
        if text.hasPrefix("co ") {
            text = "co-" + text.dropFirst("co ".count)
        }
        return text
    }
}
