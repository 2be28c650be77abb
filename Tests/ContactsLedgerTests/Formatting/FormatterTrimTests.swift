import Foundation
import Testing

@testable import ContactsModel

@Suite("Contact formatter: names trimmed of white space of any kind")
struct FormatterTrimTests {
    @Test(
        "Names are trimmed as Foundation trims them, inner white space kept",
        arguments: [
            ("Ada", "Ada"), (" Ada ", "Ada"), ("\u{3000}Ада\u{00A0}", "Ада"), ("\nAda\u{2028}", "Ada"),
            ("\u{0085}Ada\t", "Ada"), ("Ada Byron", "Ada Byron"), ("", ""), ("\u{200B}Ada", "Ada"), ("Ada.", "Ada."),
        ])
    func trims(given: String, expected: String) {
        let contact = MutableContact()
        var copy = contact
        copy.givenName = given
        #expect(ContactFormatter.string(from: copy.copy(), style: .fullName) == (expected.isEmpty ? nil : expected))
        #expect(expected == given.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
