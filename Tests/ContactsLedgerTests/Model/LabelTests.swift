import Foundation
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

@Suite("Standard labels")
struct LabelTests {
    @Test(
        "Every general label has the framework's raw string and English text",
        arguments: [
            (Label.home, "_$!<Home>!$_", "home"),
            (Label.work, "_$!<Work>!$_", "work"),
            (Label.school, "_$!<School>!$_", "school"),
            (Label.other, "_$!<Other>!$_", "other"),
            (Label.emailiCloud, "iCloud", "iCloud"),
            (Label.urlAddressHomePage, "_$!<HomePage>!$_", "homepage"),
            (Label.dateAnniversary, "_$!<Anniversary>!$_", "anniversary"),
            (Label.phoneNumberiPhone, "iPhone", "iPhone"),
            (Label.phoneNumberAppleWatch, "_$!<AppleWatch>!$_", "Apple Watch"),
            (Label.phoneNumberMobile, "_$!<Mobile>!$_", "mobile"),
            (Label.phoneNumberMain, "_$!<Main>!$_", "main"),
            (Label.phoneNumberHomeFax, "_$!<HomeFAX>!$_", "home fax"),
            (Label.phoneNumberWorkFax, "_$!<WorkFAX>!$_", "work fax"),
            (Label.phoneNumberOtherFax, "_$!<OtherFAX>!$_", "other fax"),
            (Label.phoneNumberPager, "_$!<Pager>!$_", "pager"),
        ])
    func generalLabel(label: String, raw: String, text: String) {
        #expect(label == raw)
        #expect(Label.localizedString(forLabel: label) == text)
        #expect(Label.generalLabels.contains(label))
    }

    @Test("There are fifteen general labels and no label appears twice")
    func uniqueness() {
        #expect(Label.generalLabels.count == 15)
        #expect(Set(Label.allLabels).count == Label.allLabels.count)
        #expect(
            Label.allLabels.count
                == Label.generalLabels.count + Label.contactRelationLabels.count)
    }

    @Test("The relation labels are exactly the names in relation-labels.txt")
    func relationLabelsMatchReference() throws {
        let names = try Self.referenceRelationNames()
        #expect(names.count == 216)
        #expect(Label.contactRelationLabels.count == names.count)
        let ours = Label.contactRelationLabels.map { label in
            String(label.dropFirst("_$!<".count).dropLast(">!$_".count))
        }
        #expect(Set(ours) == Set(names))
        for label in Label.contactRelationLabels {
            #expect(label.hasPrefix("_$!<") && label.hasSuffix(">!$_"), "\(label)")
        }
    }

    @Test(
        "Relation labels read as lowercased words with possessives and hyphens",
        arguments: [
            (Label.contactRelationMother, "mother"),
            (Label.contactRelationSpouse, "spouse"),
            (Label.contactRelationGranddaughterOrNiece, "granddaughter or niece"),
            (Label.contactRelationBrotherInLaw, "brother-in-law"),
            (Label.contactRelationCoFatherInLaw, "co-father-in-law"),
            (Label.contactRelationAuntFathersElderSister, "aunt father's elder sister"),
            (Label.contactRelationBrotherInLawWifesBrother, "brother-in-law wife's brother"),
            (
                Label.contactRelationElderCousinMothersSiblingsDaughterOrFathersSistersDaughter,
                "elder cousin mother's sibling's daughter or father's sister's daughter"
            ),
        ])
    func relationText(label: String, text: String) {
        #expect(Label.localizedString(forLabel: label) == text)
    }

    @Test("Every possessive in a relation text is itself a relation, so no plural is misread")
    func possessivesAreRelations() {
        let relationWords = Set(
            Label.contactRelationLabels.map { Label.localizedString(forLabel: $0) })
        for label in Label.contactRelationLabels {
            let text = Label.localizedString(forLabel: label)
            #expect(!text.contains("_$!<"))
            for word in text.split(separator: " ") where word.hasSuffix("'s") {
                #expect(relationWords.contains(String(word.dropLast(2))), "\(word) in \(text)")
            }
        }
    }

    /// The names in the reference list `Tests/Fixtures/reference/relation-labels.txt`, found in
    /// the package whose root is the directory above this file that holds `Package.swift`.
    static func referenceRelationNames() throws -> [String] {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            let parent = directory.deletingLastPathComponent()
            try #require(parent.path != directory.path, "no Package.swift above \(#filePath)")
            directory = parent
        }
        let list = directory.appendingPathComponent("Tests/Fixtures/reference/relation-labels.txt")
        let text = try String(contentsOf: list, encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).flatMap { line -> [String] in
            guard let colon = line.firstIndex(of: ":") else { return [] }
            return line[line.index(after: colon)...].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }.filter { !$0.isEmpty }
    }
}
