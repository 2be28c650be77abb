import Foundation
import Testing

@Suite("contacts-ledger search --phone: the locale's region and partial numbers")
struct PhoneRegionCommandTests {
    /// A ledger with Ada (+49 494 808 313), Cy (+43 494 808 313) and Bob (+1 202 555 0100).
    private struct Sample {
        let work: WorkDirectory
        let ada: String
        let cy: String
        let bob: String

        init() throws {
            work = try WorkDirectory().initLedger()
            ada = try work.add(["--given", "Ada", "--phone", "mobile=+49 494 808 313"])
            cy = try work.add(["--given", "Cy", "--phone", "home=+43 494 808 313"])
            bob = try work.add(["--given", "Bob", "--phone", "work=+1 202 555 0100"])
        }

        /// The identifiers `search --phone` prints, in a locale (and with a region, when given).
        func search(_ query: String, lang: String, region: String? = nil) throws -> Set<String> {
            let arguments = (region.map { ["--region", $0] } ?? []) + ["search", "--phone", query]
            let environment = ["LANG": lang, "LC_ALL": "", "LC_TELEPHONE": "", "CONTACTS_LEDGER_REGION": ""]
            let result = try work.run(arguments, environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            return Set(result.lines.map { String($0.prefix(36)) })
        }
    }

    @Test("The region defaults to the locale's: 0494 808313 finds +49 494 808 313 in Germany only")
    func localeRegion() throws {
        let sample = try Sample()
        #expect(try sample.search("0494 808313", lang: "de_DE.UTF-8") == [sample.ada])
        #expect(try sample.search("0494 808313", lang: "de_AT.UTF-8") == [sample.cy])
        // Without a region the calling code is unknown, so both countries' numbers match.
        #expect(try sample.search("0494 808313", lang: "C.UTF-8") == [sample.ada, sample.cy])
        // NANP's trunk 1 is read as such only in a NANP region.
        #expect(try sample.search("1-202-555-0100", lang: "en_US.UTF-8") == [sample.bob])
        #expect(try sample.search("1-202-555-0100", lang: "C.UTF-8").isEmpty)
        #expect(try sample.search("1-202-555-0100", lang: "C.UTF-8", region: "us") == [sample.bob])
        #expect(try sample.search("0494 808313", lang: "en_US.UTF-8", region: "de") == [sample.ada])
    }

    @Test("The last seven or more digits of a number find it, in any region")
    func partialNumbers() throws {
        let sample = try Sample()
        for lang in ["de_DE.UTF-8", "en_US.UTF-8", "C.UTF-8"] {
            #expect(try sample.search("4808313", lang: lang) == [sample.ada, sample.cy], "\(lang)")
            #expect(try sample.search("494 808 313", lang: lang) == [sample.ada, sample.cy], "\(lang)")
            #expect(try sample.search("555-0100", lang: lang) == [sample.bob], "\(lang)")
            #expect(try sample.search("808313", lang: lang).isEmpty, "\(lang)")
        }
    }
}
