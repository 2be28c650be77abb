import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("Labeled values")
struct LabeledValueTests {
    @Test("init(label:value:) makes a new UUID identifier every time")
    func newIdentifiers() throws {
        let first = LabeledValue(label: Label.home, value: "a@example.com")
        let second = LabeledValue(label: Label.home, value: "a@example.com")
        #expect(first.identifier != second.identifier)
        #expect(UUID(uuidString: first.identifier) != nil)
        #expect(first != second)
    }

    @Test("The identifier survives relabel, revalue, and both at once")
    func identitySurvivesEdits() {
        let original = LabeledValue(
            label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: "555 0100"))

        let relabeled = original.settingLabel(Label.work)
        #expect(relabeled.identifier == original.identifier)
        #expect(relabeled.label == Label.work)
        #expect(relabeled.value == original.value)

        let revalued = original.settingValue(PhoneNumber(stringValue: "555 0199"))
        #expect(revalued.identifier == original.identifier)
        #expect(revalued.label == Label.phoneNumberMobile)
        #expect(revalued.value.stringValue == "555 0199")

        let both = original.settingLabel(nil, value: PhoneNumber(stringValue: "1"))
        #expect(both.identifier == original.identifier)
        #expect(both.label == nil)
        #expect(both.value.stringValue == "1")
    }

    @Test("localizedString(forLabel:) translates standard labels and returns custom ones as given")
    func localizedLabel() {
        #expect(LabeledValue<String>.localizedString(forLabel: Label.home) == "home")
        #expect(LabeledValue<String>.localizedString(forLabel: "Cabin") == "Cabin")
        let unknown = "_$!<Unknown>!$_"
        #expect(LabeledValue<String>.localizedString(forLabel: unknown) == unknown)
    }
}
