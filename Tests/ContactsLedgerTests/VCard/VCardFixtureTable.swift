import Foundation

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerAudit

// What every fixture under Tests/Fixtures/vcards must import as, written after reading each file
// (with xxd where bytes matter). Photo sizes and digests were computed independently with
// Python's base64 and hashlib over the file's lines. A comment before an entry says what is
// surprising about that file.

extension VCardFixture {
    /// Every fixture, in path order (Ukrainian_cp1251.vcf twice: with the default fallback
    /// encoding and with Windows-1251).
    static let all: [VCardFixture] = [
        // 2.1 ADR continued by a backslash at the end of the line (an Android quirk): read as street lines.
        VCardFixture(
            "android-opt-vcard/v21_adr_multiple_line.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    family: "bogus",
                    birthday: "2008-12-03",
                    addresses: [
                        .init(
                            Label.home, street: "Grindelberg 999", city: "Hamburg", postalCode: "99999",
                            country: "Deutschland"),
                        .init(
                            Label.home, street: "Hermann v. Brevern\n9999999\nPackstation 999", city: "Hamburg",
                            postalCode: "99999", country: "Deutschland"),
                    ],
                    urls: [.init(nil, "http://bogus.com/")])
            ]),
        // 2.1 escapes only `\;`; in structured values `\\` and `\:` are undone too (as AOSP does), so the
        // suffix is ":E". FN is not used because N has a name.
        VCardFixture(
            "android-opt-vcard/v21_backslash.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "D",
                    given: "A;B\\",
                    middle: "C\\;",
                    suffix: ":E")
            ]),
        // PHOTO;ENCODING=BASE64 without TYPE is a PNG (found by its first bytes); TEL;TYPE=WORK in 2.1.
        VCardFixture(
            "android-opt-vcard/v21_blackberry_photo.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    family: "boogie",
                    phones: [
                        .init(Label.work, "+5555555"),
                        .init(Label.phoneNumberMobile, "+5555556"),
                    ],
                    emails: [.init(nil, "forrestgump@walladalla.com")],
                    photo: .init(.png, bytes: 2056, sha256: "74cdd3328a520c68"))
            ]),
        // The two NOTEs are joined with a line feed; the second is quoted-printable whose continuation line starts
        // with a space (data, not a fold). ORG's second and third components form the department, joined with ", ".
        // VIDEO and VOICE alone give no label. EMAIL;CELL gives no label (CELL is a phone type).
        VCardFixture(
            "android-opt-vcard/v21_complicated.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Pos",
                    given: "Forrest",
                    middle: "Hoge",
                    family: "Gump",
                    suffix: "Tao",
                    organization: "Gump Shrimp Co.",
                    department: "Sales Dept.;Manager, Fish keeper",
                    jobTitle: "Shrimp Man",
                    note: .exact(
                        "The following note is the example from RFC 2045.\nNow's the time for all folk to come to the aid of their country."
                    ),
                    birthday: "1980-01-01",
                    phones: [
                        .init(Label.work, "(111) 555-1212"),
                        .init(Label.home, "(404) 555-1212"),
                        .init(Label.phoneNumberMobile, "0311111111"),
                        .init(nil, "0322222222"),
                        .init(nil, "0333333333"),
                    ],
                    emails: [.init(nil, "forrestgump@walladalla.com"), .init(nil, "cell@example.com")],
                    addresses: [
                        .init(
                            Label.work, street: "100 Waters Edge", city: "Baytown", state: "LA", postalCode: "30314",
                            country: "United States of America"),
                        .init(
                            Label.home, street: "42 Plantation St.", city: "Baytown", state: "LA", postalCode: "30314",
                            country: "United States of America"),
                    ],
                    urls: [.init(nil, "http://www.example.com/")],
                    photo: .init(.jpeg, bytes: 3888, sha256: "764284cee9b51280"))
            ]),
        // `#` lines are skipped, but the one inside the quoted-printable soft line break is data.
        VCardFixture(
            "android-opt-vcard/v21_invalid_comment_line.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Conference Call",
                    note: .exact("This is an (sharp ->#<- sharp) example. This message must NOT be ignored."))
            ]),
        // Shift_JIS, raw and quoted-printable; SOUND;X-IRMC-N (half-width katakana) gives the phonetic names.
        VCardFixture(
            "android-opt-vcard/v21_japanese_2.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "ロイド1",
                    family: "安藤",
                    phoneticGiven: "ﾛｲﾄﾞ1",
                    phoneticFamily: "ｱﾝﾄﾞｳ",
                    note: .exact("メモ"),
                    addresses: [
                        .init(Label.home, street: "東京都渋谷区桜丘町26-1セルリアンタワー6階", postalCode: "150-8512")
                    ])
            ]),
        // ANNIVERSARY in 2.1 becomes a date labeled anniversary; AGENT and empty X- properties are skipped.
        VCardFixture(
            "android-opt-vcard/v21_winmo_65.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    family: "Example",
                    dates: [.init(Label.dateAnniversary, "2009-10-10")])
            ]),
        // A quoted TYPE value with a comma and a colon: the type list is split at the comma, the unknown tokens
        // are joined back with a comma into a custom label.
        VCardFixture(
            "android-opt-vcard/v30_comma_separated.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "G",
                    middle: "M",
                    family: "F",
                    phones: [
                        .init("COMMA,SEPARATED:INSIDE.DQUOTE", "1")
                    ])
            ]),
        // iOS 6.1.3: every line ends in CR CR LF.
        VCardFixture(
            "android-opt-vcard/v30_ios_613_multiline.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Bob",
                    family: "Smith",
                    organization: "Smith Auto Repair",
                    phones: [
                        .init(Label.phoneNumberMobile, "(650) 555-1212")
                    ],
                    emails: [.init(nil, "bob@smithauto.com")],
                    urls: [.init(Label.urlAddressHomePage, "www.smithauto.com")],
                    photo: .init(.jpeg, bytes: 5165, sha256: "074e4d23d4b5d97b"))
            ]),
        // Shift_JIS whose trail bytes are 0x5C (a backslash in ASCII): the value is decoded before it is unescaped.
        VCardFixture(
            "android-opt-vcard/v30_japanese.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "圭一",
                    middle: "伊予",
                    family: "伊能")
            ]),
        // A UTF-8 TYPE value becomes a custom label.
        VCardFixture(
            "android-opt-vcard/v30_multibyte_param.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "G",
                    middle: "M",
                    family: "F",
                    phones: [
                        .init("费", "1")
                    ])
            ]),
        VCardFixture(
            "android-opt-vcard/v40_sort_as.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "ロイド",
                    family: "安藤",
                    organization: "グーグル",
                    department: "検索部門")
            ]),
        // No N: FN becomes the given name. The quoted TYPE "Both work and home" becomes a custom label.
        VCardFixture(
            "evolution-data-server/eds-10.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Frank Dawson",
                    organization: "Lotus Development Corporation",
                    phones: [
                        .init(Label.work, "+1-919-676-9515"),
                        .init(Label.phoneNumberWorkFax, "+1-919-676-9564"),
                    ],
                    addresses: [
                        .init(
                            "Both work and home", street: "6544 Battleford Drive", city: "Raleigh", state: "NC",
                            postalCode: "27613-3502", country: "U.S.A.")
                    ])
            ]),
        // Empty parameters (`;;`, `;:`) are ignored; the unknown properties are skipped; no final newline.
        VCardFixture(
            "evolution-data-server/eds-11.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Invalid",
                    family: "AttributeParam")
            ]),
        // Nokia quoted-printable values that start with a soft line break; the ADR ends with a soft break and a blank line.
        VCardFixture(
            "evolution-data-server/eds-12.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Michael",
                    family: "Brüning",
                    birthday: "1978-12-29",
                    phones: [
                        .init(Label.phoneNumberMobile, "+491622433834"),
                        .init(Label.phoneNumberMobile, "017623384942"),
                        .init(Label.work, "+4973117546691"),
                    ],
                    emails: [.init(Label.work, "ext-Michael.Bruning@nokia.com")],
                    addresses: [
                        .init(
                            Label.home, street: "Münsterplatz 21", city: "Ulm", state: "Baden-Württemberg",
                            postalCode: "89073")
                    ])
            ]),
        // TAB folds, a fold inside the parameters, `\;` inside ADR components, quoted-printable in a 3.0 card
        // with `\\` and `\N`, whose last soft break is followed by a line holding one space.
        VCardFixture(
            "evolution-data-server/eds-13.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Ralf Engels",
                    organization: "Ralf Engels evil tests",
                    phones: [
                        .init(Label.work, "+1-919-676-9515"),
                        .init(Label.phoneNumberWorkFax, "+1-919-676-9564"),
                    ],
                    emails: [.init(nil, "Frank_Dawson@Lotus.com"), .init(nil, "semicolon;@points.net")],
                    addresses: [
                        .init(
                            Label.work, street: "Evil semicolon city;", city: "Semicolon;way", state: "NC",
                            postalCode: "27613-3502", country: "U.S.A."),
                        .init(
                            Label.home, street: "Evil backslash \\ way", city: "Ulm", state: "Newlines\nCountry\nevil",
                            postalCode: "89073"),
                    ],
                    urls: [.init(nil, "http://home%32%20.earthlink.net/~fdawson")])
            ]),
        // Chinese quoted-printable split in the middle of UTF-8 sequences by soft line breaks.
        VCardFixture(
            "evolution-data-server/eds-5.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "十城目管理大型知座",
                    organization: "十城目管理大型知座",
                    jobTitle: "十城目管理大型知座",
                    phones: [
                        .init(Label.work, "十城目管理大型知座"),
                        .init(Label.phoneNumberWorkFax, "十城目管理大型知座"),
                        .init(Label.home, "十城目管理大型知座"),
                        .init(Label.phoneNumberMobile, "十城目管理大型知座"),
                    ],
                    emails: [.init(nil, "weird@weird.com")],
                    addresses: [
                        .init(Label.work, street: "十城目管理大型知座\n十城目管理大型知座\n十城目管理大型知座\n十城目管理大型知座")
                    ])
            ]),
        // Malformed parameters (`TYPE=WORK,`, bare `MSG,WORK`, `FAX,WORK`) still give their labels.
        VCardFixture(
            "evolution-data-server/eds-6.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Frank Dawson",
                    organization: "Lotus Development Corporation",
                    phones: [
                        .init(Label.work, "+1-919-676-9515"),
                        .init(Label.phoneNumberWorkFax, "+1-919-676-9564"),
                    ],
                    emails: [.init(nil, "Frank_Dawson@Lotus.com"), .init(nil, "fdawson@earthlink.net")],
                    addresses: [
                        .init(
                            Label.work, street: "6544 Battleford Drive", city: "Raleigh", state: "NC",
                            postalCode: "27613-3502", country: "U.S.A.")
                    ],
                    urls: [.init(nil, "http://home.earthlink.net/~fdawson")])
            ]),
        // Missing BEGIN:VCARD: the lines up to END:VCARD are reported as one rejected card, index 0, line 1.
        VCardFixture(
            "evolution-data-server/eds-7.vcf",
            cards: [],
            rejected: [.init(index: 0, line: 1, .missingBegin)],
        ),
        // TYPE="jpeg" but the data is a PNG: the bytes are kept as they are.
        VCardFixture(
            "evolution-data-server/eds-photo-1.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "photo",
                    emails: [.init(Label.work, "photo@no.where")],
                    photo: .init(.png, bytes: 2780, sha256: "0608a52c004df5c5"))
            ]),
        // Six cards. Card 4's PHOTO is not valid base64 (1169 characters; lines were cut out of the original), so that
        // card is rejected and the others import. A soft line break followed by a blank line ends an ORG value.
        VCardFixture(
            "ez-vcard/John_Doe_ANDROID.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    emails: [.init(nil, "john.doe@company.com")]),
                VCardExpectedCard(
                    index: 1,
                    emails: [.init(nil, "jane.doe@company.com")]),
                VCardExpectedCard(
                    index: 2,
                    family: "Ñ Ñ Ñ Ñ ",
                    phones: [
                        .init(Label.phoneNumberMobile, "123456789")
                    ]),
                VCardExpectedCard(
                    index: 3,
                    family: "Ñ Ñ Ñ Ñ Ñ Ñ Ñ Ñ Ñ Ñ Ñ",
                    note: .exact("Ñ Ñ Ñ Ñ Ñ Ñ Ñ ÑÑ Ñ Ñ Ñ Ñ Ñ Ñ ÑÑ Ñ Ñ Ñ Ñ \nÑ Ñ Ñ Ñ Ñ Ñ Ñ ÑÑ Ñ Ñ Ñ Ñ Ñ Ñ ÑÑ Ñ Ñ Ñ Ñ "),
                    phones: [
                        .init(Label.phoneNumberMobile, "123456"),
                        .init(Label.home, "234567"),
                        .init(Label.phoneNumberMobile, "3456789"),
                        .init(Label.home, "45678901"),
                    ]),
                VCardExpectedCard(
                    index: 5,
                    family: "ÑÑÑÑ",
                    organization: "ÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑÑ",
                    phones: [
                        .init(Label.phoneNumberMobile, "55556666")
                    ],
                    emails: [.init(nil, "henry@company.com")]),
            ],
            rejected: [.init(index: 4, line: 52, .undecodablePhoto)],
            warnings: [
                .init(.duplicateProperty, line: 48), .init(.duplicateProperty, line: 82),
                .init(.duplicateProperty, line: 87),
            ]),
        VCardFixture(
            "ez-vcard/John_Doe_BLACK_BERRY.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "john",
                    family: "Doe",
                    organization: "Acme Solutions",
                    phones: [
                        .init(Label.phoneNumberMobile, "+96123456789")
                    ],
                    photo: .init(.jpeg, bytes: 1674, sha256: "c9462e27f179ff16"))
            ]),
        // X-EVOLUTION-SPOUSE/MANAGER/ASSISTANT become relations, X-EVOLUTION-ANNIVERSARY a date; ADR's PO box joins
        // the street; ORG has two units; no final newline.
        VCardFixture(
            "ez-vcard/John_Doe_EVOLUTION.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Mr.",
                    given: "John",
                    middle: "Richter, James",
                    family: "Doe",
                    suffix: "Sr.",
                    nickname: "Johny",
                    organization: "IBM",
                    department: "Accounting, Dungeon",
                    jobTitle: "Money Counter",
                    note: .affixes(
                        "THIS SOFTWARE IS PROVIDED BY THE COPYRIG", "HE POSSIBILITY OF SUCH DAMAGE.", count: 755),
                    birthday: "1980-03-22",
                    dates: [.init(Label.dateAnniversary, "1980-03-22")],
                    phones: [
                        .init(Label.phoneNumberMobile, "905-666-1234"),
                        .init(Label.work, "905-555-1234"),
                    ],
                    emails: [.init(Label.work, "john.doe@ibm.com")],
                    addresses: [
                        .init(
                            Label.home, street: "ASB-123\n15 Crescent moon drive", city: "Albaney", state: "New York",
                            postalCode: "12345", country: "United States of America")
                    ],
                    urls: [.init(nil, "http://www.ibm.com")],
                    relations: [
                        .init(Label.contactRelationSpouse, "Maria"), .init(Label.contactRelationManager, "Big Blue"),
                        .init(Label.contactRelationAssistant, "Little Red"),
                    ],
                    instantMessages: [.init(Label.home, "AIM:johnny5@aol.com")])
            ]),
        // Gmail escapes double quotes (`\"`) and colons (`\:`); both are read leniently. The street component holds
        // the whole address and the other components are empty.
        VCardFixture(
            "ez-vcard/John_Doe_GMAIL.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Mr.",
                    given: "John",
                    middle: "Richter, James",
                    family: "Doe",
                    suffix: "Sr.",
                    phoneticGiven: "Jon",
                    phoneticFamily: "Dow",
                    organization: "IBM",
                    jobTitle: "Money Counter",
                    note: .affixes(
                        "THIS SOFTWARE IS PROVIDED BY THE COPYRIG", "H DAMAGE.\nFavotire Color: Blue", count: 776),
                    birthday: "1980-03-22",
                    dates: [.init(Label.dateAnniversary, "1975-03-01")],
                    phones: [
                        .init(Label.phoneNumberMobile, "905-555-1234"),
                        .init(Label.home, "905-666-1234"),
                    ],
                    emails: [.init(Label.home, "john.doe@ibm.com")],
                    addresses: [
                        .init(
                            Label.home,
                            street:
                                "Crescent moon drive\n555-asd\nNice Area, Albaney, New York 12345\nUnited States of America"
                        )
                    ],
                    urls: [.init(Label.work, "http://www.ibm.com")],
                    relations: [.init(Label.contactRelationSpouse, "Jenny")])
            ]),
        // iOS 5: CR CR LF line ends; X-ABADR holds street text instead of a country code (warned, left out); the
        // comma in `Richter,James` is not escaped; `_$!<AssistantPhone>!$_` is not a standard label and is kept in that form.
        VCardFixture(
            "ez-vcard/John_Doe_IPHONE.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Mr.",
                    given: "John",
                    middle: "Richter,James",
                    family: "Doe",
                    suffix: "Sr.",
                    nickname: "Johny",
                    organization: "IBM",
                    department: "Accounting",
                    jobTitle: "Money Counter",
                    birthday: "2012-06-06",
                    phones: [
                        .init(Label.phoneNumberMobile, "905-555-1234"),
                        .init(Label.home, "905-666-1234"),
                        .init(Label.work, "905-777-1234"),
                        .init(Label.phoneNumberHomeFax, "905-888-1234"),
                        .init(Label.phoneNumberWorkFax, "905-999-1234"),
                        .init(Label.phoneNumberPager, "905-111-1234"),
                        .init("_$!<AssistantPhone>!$_", "905-222-1234"),
                    ],
                    emails: [.init(nil, "john.doe@ibm.com")],
                    addresses: [
                        .init(
                            Label.home, street: "Silicon Alley 5,", city: "New York", state: "New York",
                            postalCode: "12345", country: "United States of America"),
                        .init(
                            Label.work, street: "Street4\nBuilding 6\nFloor 8", city: "New York", postalCode: "12345",
                            country: "USA"),
                    ],
                    urls: [.init(Label.urlAddressHomePage, "http://www.ibm.com")],
                    photo: .init(.jpeg, bytes: 32531, sha256: "e01af63d0602d72a"))
            ],
            warnings: [.init(.invalidCountryCode, line: 19), .init(.invalidCountryCode, line: 21)]),
        // Address Book 6.1; unknown 3.0 properties (CLASS, PROFILE, NAME, ...) are skipped.
        VCardFixture(
            "ez-vcard/John_Doe_LOTUS_NOTES.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Mr.",
                    given: "John",
                    middle: "Johny",
                    family: "Doe",
                    suffix: "I",
                    nickname: "Johny,JayJay",
                    organization: "IBM",
                    department: "SUN",
                    jobTitle: "Generic Accountant",
                    note: .affixes(
                        "THIS SOFTWARE IS PROVIDED BY THE COPYRIG", "E\n POSSIBILITY OF SUCH DAMAGE.", count: 762),
                    birthday: "1980-05-21",
                    phones: [
                        .init(Label.phoneNumberMobile, "+1 (212) 204-34456"),
                        .init(Label.phoneNumberWorkFax, "00-1-212-555-7777"),
                    ],
                    emails: [.init(Label.work, "john.doe@ibm.com"), .init(Label.work, "billy_bob@gmail.com")],
                    addresses: [
                        .init(
                            Label.home, street: "25334\nSouth cresent drive, Building 5, 3rd floo r", city: "New York",
                            state: "New York", postalCode: "NYC887", country: "U.S.A.")
                    ],
                    urls: [.init(Label.urlAddressHomePage, "http://www.sun.com")],
                    photo: .init(.jpeg, bytes: 7957, sha256: "a756c0cb65ca44f3"))
            ]),
        // `PHOTO;BASE64:` with two-space indented LF-only lines inside a CRLF file; free-text labels
        // (`AssistantPhone`, `Spouse`) are kept verbatim, not mapped.
        VCardFixture(
            "ez-vcard/John_Doe_MAC_ADDRESS_BOOK.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Mr.",
                    given: "John",
                    middle: "Richter,James",
                    family: "Doe",
                    suffix: "Sr.",
                    nickname: "Johny",
                    phoneticGiven: "Jon",
                    phoneticFamily: "Dow",
                    organization: "IBM",
                    department: "Accounting",
                    jobTitle: "Money Counter",
                    note: .affixes(
                        "THIS SOFTWARE IS PROVIDED BY THE COPYRIG", "H DAMAGE.\nFavotire Color: Blue", count: 776),
                    birthday: "2012-06-06",
                    phones: [
                        .init(Label.work, "905-777-1234"),
                        .init(Label.home, "905-666-1234"),
                        .init(Label.phoneNumberMobile, "905-555-1234"),
                        .init(Label.phoneNumberHomeFax, "905-888-1234"),
                        .init(Label.phoneNumberWorkFax, "905-999-1234"),
                        .init(Label.phoneNumberPager, "905-111-1234"),
                        .init("AssistantPhone", "905-222-1234"),
                    ],
                    emails: [.init(Label.work, "john.doe@ibm.com")],
                    addresses: [
                        .init(
                            Label.home, street: "Silicon Alley 5,", city: "New York", state: "New York",
                            postalCode: "12345", country: "United States of America"),
                        .init(
                            Label.work, street: "Street4\nBuilding 6\nFloor 8", city: "New York", postalCode: "12345",
                            country: "USA"),
                    ],
                    urls: [.init(Label.urlAddressHomePage, "http://www.ibm.com")],
                    relations: [.init("Spouse", "Jenny")],
                    photo: .init(.jpeg, bytes: 18242, sha256: "0e85cef38138bb6b"))
            ],
            warnings: [.init(.invalidCountryCode, line: 20), .init(.invalidCountryCode, line: 22)]),
        // 2.1: the comma in the middle name is literal; X-MS-ANNIVERSARY, X-MS-MANAGER and X-MS-ASSISTANT are read.
        VCardFixture(
            "ez-vcard/John_Doe_MS_OUTLOOK.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Mr.",
                    given: "John",
                    middle: "Richter,James",
                    family: "Doe",
                    suffix: "Sr.",
                    nickname: "Johny",
                    organization: "IBM",
                    department: "Accounting",
                    jobTitle: "Money Counter",
                    note: .affixes(
                        "THIS SOFTWARE IS PROVIDED BY GEORGE EL-H", "HE POSSIBILITY OF SUCH DAMAGE.", count: 731),
                    birthday: "1980-03-22",
                    dates: [.init(Label.dateAnniversary, "2011-01-13")],
                    phones: [
                        .init(Label.work, "(905) 555-1234"),
                        .init(Label.home, "(905) 666-1234"),
                    ],
                    emails: [.init(nil, "john.doe@ibm.cm")],
                    addresses: [
                        .init(
                            Label.work, street: "Cresent moon drive", city: "Albaney", state: "New York",
                            postalCode: "12345", country: "United States of America"),
                        .init(
                            Label.home, street: "Silicon Alley 5,", city: "New York", state: "New York",
                            postalCode: "12345", country: "United States of America"),
                    ],
                    urls: [.init(Label.work, "http://www.ibm.com")],
                    relations: [
                        .init(Label.contactRelationManager, "Big Blue"), .init(Label.contactRelationAssistant, "Jenny"),
                    ],
                    photo: .init(.jpeg, bytes: 860, sha256: "41533f06ce6eabc2"))
            ]),
        // Three PHOTO URLs are left out with warnings; second ORG, TITLE and BDAY (ALTID) are duplicates; unknown TYPE
        // values become custom labels; IMPP schemes are stripped and X-SERVICE-TYPE names the service.
        VCardFixture(
            "ez-vcard/fullcontact.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Prefix",
                    given: "FirstName",
                    middle: "MiddleName",
                    family: "LastName",
                    suffix: "Suffix",
                    nickname: "NickName",
                    organization: "Organization1",
                    department: "Department1",
                    jobTitle: "Title1",
                    note: .exact("Notes line 1\nNotes line 2"),
                    birthday: "2016-08-01",
                    phones: [
                        .init(Label.home, "555-555-1111"),
                        .init(Label.work, "555-555-1112"),
                        .init(Label.phoneNumberMobile, "555-555-1113"),
                        .init(Label.phoneNumberMobile, "555-555-1114"),
                        .init(nil, "555-555-1115"),
                        .init(Label.phoneNumberHomeFax, "555-555-1116"),
                        .init(Label.phoneNumberWorkFax, "555-555-1117"),
                        .init(nil, "555-555-1118"),
                        .init(nil, "555-555-1119"),
                    ],
                    emails: [
                        .init(Label.home, "home@example.com"), .init(Label.work, "work@example.com"),
                        .init(Label.school, "school@example.com"), .init(Label.other, "other@example.com"),
                        .init("customtype", "custom@example.com"),
                    ],
                    addresses: [
                        .init(
                            Label.home, street: "HomeExtended\nHomeStreet", city: "HomeCity", state: "HomeState",
                            postalCode: "HomePostal", country: "HomeCountry"),
                        .init(
                            Label.work, street: "WorkExtended\nWorkStreet", city: "WorkCity", state: "WorkState",
                            postalCode: "WorkPostal", country: "WorkCountry"),
                        .init(
                            Label.other, street: "OtherExtended\nOtherStreet", city: "OtherCity", state: "OtherState",
                            postalCode: "OtherPostal", country: "OtherCountry"),
                        .init(
                            "customtype", street: "CustomExtended\nCustomStreet", city: "CustomCity",
                            state: "CustomState", postalCode: "CustomPostal", country: "CustomCountry"),
                    ],
                    urls: [
                        .init(nil, "http://www.homepage.com"), .init(nil, "http://www.blog.com"),
                        .init(nil, "http://www.other.com"), .init(nil, "http://www.custom.com"),
                    ],
                    instantMessages: [
                        .init(nil, "GoogleTalk:gtalk"), .init(nil, "Skype:skype"), .init(nil, "Yahoo:yahoo"),
                        .init(nil, "AIM:aim"), .init(nil, "Jabber:jabber"), .init(nil, "Other:other"),
                        .init(nil, "CustomTYPE:custom"),
                    ])
            ],
            warnings: [
                .init(.photoURLIgnored, line: 19), .init(.photoURLIgnored, line: 21), .init(.photoURLIgnored, line: 23),
                .init(.duplicateProperty, line: 26), .init(.duplicateProperty, line: 28),
                .init(.duplicateProperty, line: 30),
            ]),
        VCardFixture(
            "ez-vcard/gmail-single.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Greg",
                    family: "Dartmouth",
                    nickname: "Gman",
                    phoneticGiven: "Grregg",
                    phoneticFamily: "Dart-mowth",
                    organization: "TheCompany",
                    jobTitle: "TheJobTitle",
                    note: .exact(
                        "This is GMail's note field.\nIt should be added as a NOTE type.\nACustomField: CustomField"),
                    birthday: "1960-09-10",
                    dates: [.init(Label.dateAnniversary, "1970-06-02")],
                    phones: [
                        .init(Label.phoneNumberMobile, "555 555 1111"),
                        .init("GRAND_CENTRAL", "555 555 2222"),
                    ],
                    emails: [.init(nil, "gdartmouth@hotmail.com")],
                    addresses: [
                        .init(Label.home, street: "123 Home St\nHome City, HM 12345"),
                        .init(
                            "CustomAdrType", street: "321 Custom St", city: "Custom City", state: "TX",
                            postalCode: "98765", country: "USA"),
                    ],
                    urls: [.init("PROFILE", "http://TheProfile.com")],
                    relations: [
                        .init(Label.contactRelationSpouse, "MySpouse"), .init("CustomRelationship", "MyCustom"),
                    ],
                    instantMessages: [.init(nil, "ICQ:123456789")])
            ]),
        VCardFixture(
            "ez-vcard/gmail-single2.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "VCard",
                    family: "Test",
                    nickname: "TheNickname",
                    phoneticGiven: "ThePhoneticFirstName",
                    phoneticFamily: "ThePhoneticLastName",
                    organization: "TheCompany",
                    jobTitle: "TheJobTitle",
                    note: .exact("note line 1\nnote line 2\nCustomField: field value"),
                    birthday: "1912-06-23",
                    dates: [
                        .init(Label.dateAnniversary, "1930-03-20"), .init(nil, "1776-07-04"),
                        .init("CustomDateCategory", "2000-09-12"),
                    ],
                    phones: [
                        .init(nil, "5555551111"),
                        .init(Label.home, "5555551112"),
                        .init(Label.work, "5555551113"),
                        .init(nil, "5555551114"),
                        .init(Label.phoneNumberMobile, "5555551115"),
                        .init(Label.phoneNumberMain, "5555551116"),
                        .init(Label.phoneNumberHomeFax, "5555551117"),
                        .init(Label.phoneNumberWorkFax, "5555551118"),
                        .init("GRAND_CENTRAL", "5555551119"),
                        .init(Label.phoneNumberPager, "5555551120"),
                        .init("CustomePhoneCategory", "5555551121"),
                    ],
                    emails: [
                        .init(nil, "email@example.com"), .init(Label.home, "homeemail@example.com"),
                        .init(Label.work, "workemail@example.com"), .init(nil, "otheremail@example.com"),
                        .init("CustomEmailCategory", "customcategory@example.com"),
                    ],
                    addresses: [
                        .init(nil, street: "111 Main St", city: "NY", state: "New York", postalCode: "10011"),
                        .init(Label.home, street: "112 Main St", city: "NY", state: "New York", postalCode: "10011"),
                        .init(Label.work, street: "113 Main St", city: "NY", state: "New York", postalCode: "10011"),
                        .init(nil, street: "114 Main St", city: "NY", state: "New York", postalCode: "10011"),
                        .init(
                            "CustomAddressCategory", street: "115 Main St", city: "NY", state: "New York",
                            postalCode: "10011"),
                    ],
                    urls: [
                        .init(nil, "http://www.example1.com"), .init("PROFILE", "http://www.example2.com"),
                        .init("BLOG", "http://www.example3.com"),
                        .init(Label.urlAddressHomePage, "http://www.example4.com"),
                        .init(Label.work, "http://www.example5.com"),
                        .init("CustomWebsiteCategory", "http://www.example6.com"),
                    ],
                    relations: [
                        .init(nil, "Name1"), .init(Label.contactRelationSpouse, "Name2"),
                        .init(Label.contactRelationChild, "Name3"), .init(Label.contactRelationMother, "Name4"),
                        .init(Label.contactRelationFather, "Name5"), .init(Label.contactRelationParent, "Name6"),
                        .init(Label.contactRelationBrother, "Name7"), .init(Label.contactRelationSister, "Name8"),
                        .init(Label.contactRelationFriend, "Name9"), .init("RELATIVE", "Name10"),
                        .init(Label.contactRelationManager, "Name11"), .init(Label.contactRelationAssistant, "Name12"),
                        .init("REFERRED_BY", "Name13"), .init(Label.contactRelationPartner, "Name14"),
                        .init("DOMESTIC_PARTNER", "Name15"), .init("CustomRelationCategory", "Name16"),
                    ],
                    instantMessages: [
                        .init(nil, "GoogleTalk:IM2"), .init(nil, "AIM:IM3"), .init(nil, "Yahoo:IM4"),
                        .init(nil, "Skype:IM5"), .init(nil, "QQ:IM6"), .init(nil, "MSN:IM7"), .init(nil, "ICQ:IM8"),
                        .init(nil, "Jabber:IM9"),
                    ])
            ]),
        // The LABEL parameter is not quoted but contains colons, so the value starts at its first colon (RFC 6350):
        // the PO box component receives the rest of the label text and joins the street. City, code and country are right.
        VCardFixture(
            "ez-vcard/issue114.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Dummy",
                    family: "Dummy",
                    organization: "Dummy GmbH",
                    phones: [
                        .init(Label.phoneNumberMobile, "+49 1234 56789"),
                        .init(Label.work, "+49 9876 54321"),
                    ],
                    emails: [.init(Label.home, "dummy.dummy@dummy.com")],
                    addresses: [
                        .init(
                            Label.work,
                            street:
                                " BHG01:^n61352 Bad Homburg^nGERMANY:61352 Bad Homburg\nGERMANY:\nBHG01:\nDummy-Dummy-Strasse 1",
                            city: "Bad Homburg", postalCode: "61352", country: "Germany")
                    ])
            ]),
        // A quoted-printable soft line break between =0D and =0A; KEY with an indented base64 body and two blank lines.
        VCardFixture(
            "ez-vcard/outlook-2003.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Mr.",
                    given: "John",
                    family: "Doe",
                    suffix: "III",
                    nickname: "Joey",
                    organization: "Company, The",
                    department: "TheDepartment",
                    jobTitle: "The Job Title",
                    note: .exact("This is the note field!!\nSecond line\n\nThird line is empty\n"),
                    birthday: "1980-03-21",
                    phones: [
                        .init(Label.work, "BusinessPhone"),
                        .init(Label.home, "HomePhone"),
                        .init(Label.phoneNumberMobile, "MobilePhone"),
                        .init(Label.phoneNumberWorkFax, "BusinessFaxPhone"),
                    ],
                    emails: [.init(nil, "jdoe@hotmail.com")],
                    addresses: [
                        .init(
                            Label.work, street: "TheOffice\n123 Main St", city: "Austin", state: "TX",
                            postalCode: "12345", country: "United States of America")
                    ],
                    urls: [.init(Label.work, "http://web-page-address.com")])
            ]),
        VCardFixture(
            "ez-vcard/outlook-2007.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Mr.",
                    given: "Michael",
                    family: "Angstadt",
                    suffix: "Jr.",
                    nickname: "Mike",
                    organization: "TheCompany",
                    department: "TheDepartment",
                    jobTitle: "TheJobTitle",
                    note: .exact(
                        "This is the NOTE field\t\nI assume it encodes this text inside a NOTE vCard type.\nBut I'm not sure because there's text formatting going on here.\nIt does not preserve the formatting"
                    ),
                    birthday: "1922-03-10",
                    dates: [.init(Label.dateAnniversary, "2012-08-01")],
                    phones: [
                        .init(Label.work, "(111) 555-1111"),
                        .init(Label.home, "(111) 555-2222"),
                        .init(Label.phoneNumberMobile, "(111) 555-4444"),
                        .init(Label.phoneNumberWorkFax, "(111) 555-3333"),
                    ],
                    emails: [.init(nil, "mike.angstadt@gmail.com")],
                    addresses: [
                        .init(
                            Label.work, street: "TheOffice\n222 Broadway", city: "New York", state: "NY",
                            postalCode: "99999", country: "USA")
                    ],
                    urls: [
                        .init(Label.home, "http://mikeangstadt.name"), .init(Label.work, "http://mikeangstadt.name"),
                    ],
                    relations: [
                        .init(Label.contactRelationManager, "TheManagerName"),
                        .init(Label.contactRelationAssistant, "TheAssistantName"),
                        .init(Label.contactRelationSpouse, "TheSpouse"),
                    ],
                    photo: .init(.jpeg, bytes: 2324, sha256: "5a0fae04fa507f6a"))
            ]),
        // tel: URIs lose their scheme but keep `;ext=`; `--0203` is a birthday without a year; the anniversary's
        // time and offset are dropped.
        VCardFixture(
            "ez-vcard/rfc6350-example.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Simon",
                    family: "Perreault",
                    suffix: "ing. jr,M.Sc.",
                    organization: "Viagenie",
                    birthday: "--02-03",
                    dates: [.init(Label.dateAnniversary, "2009-08-08")],
                    phones: [
                        .init(Label.work, "+1-418-656-9254;ext=102"),
                        .init(Label.phoneNumberMobile, "+1-418-262-6501"),
                    ],
                    emails: [.init(Label.work, "simon.perreault@viagenie.ca")],
                    addresses: [
                        .init(
                            Label.work, street: "Suite D2-630\n2875 Laurier", city: "Quebec", state: "QC",
                            postalCode: "G1V 2M2", country: "Canada")
                    ],
                    urls: [.init(Label.home, "http://nomis80.org")])
            ]),
        // The street is in the extended-address slot; TYPE=FAX alone is the other fax;
        // X-SPOUSE and X-ANNIVERSARY are read.
        VCardFixture(
            "ez-vcard/thunderbird-MoreFunctionsForAddressBook-extension.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "John",
                    family: "Doe",
                    nickname: "Johnny",
                    organization: "TheOrganization",
                    department: "TheDepartment",
                    jobTitle: "TheTitle",
                    note: .exact(
                        "This is the notes field.\nSecond Line\n\nFourth Line\nYou can put anything in the \"note\" field; even curse words."
                    ),
                    birthday: "1970-09-21",
                    dates: [.init(Label.dateAnniversary, "1990-04-30")],
                    phones: [
                        .init(Label.work, "555-555-1111"),
                        .init(Label.home, "555-555-2222"),
                        .init(Label.phoneNumberMobile, "555-555-5555"),
                        .init(Label.phoneNumberOtherFax, "555-555-3333"),
                        .init(Label.phoneNumberPager, "555-555-4444"),
                    ],
                    emails: [
                        .init(nil, "doe.john@hotmail.com"), .init(nil, "additional-email@company.com"),
                        .init(nil, "additional-email1@company.com"), .init(nil, "additional-email2@company.com"),
                        .init(nil, "additional-email3@company.com"),
                    ],
                    addresses: [
                        .init(
                            Label.work, street: "222 Broadway\nSuite 100", city: "New York", state: "NY",
                            postalCode: "98765", country: "USA"),
                        .init(
                            Label.home, street: "123 Main St\nApt 10", city: "Austin", state: "TX", postalCode: "12345",
                            country: "USA"),
                    ],
                    urls: [
                        .init(Label.home, "http://www.private-webpage.com"),
                        .init(Label.work, "http://www.work-webpage.com"),
                    ],
                    relations: [.init(Label.contactRelationSpouse, "TheSpouse")],
                    photo: .init(.jpeg, bytes: 8940, sha256: "d5c5effbd371b9f4"))
            ]),
        // Cut off inside a quoted-printable NOTE: no END:VCARD, so the card is rejected (line of its BEGIN).
        VCardFixture(
            "folkerkinzel-vcards/Cropped_2_1.vcf",
            cards: [],
            rejected: [.init(index: 0, line: 1, .missingEnd)],
        ),
        // Raw Windows-1252 without CHARSET: not valid UTF-8, so the fallback encoding is used.
        VCardFixture(
            "folkerkinzel-vcards/German_cp1252.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Sören",
                    middle: "Täve",
                    family: "Nüßlebaum",
                    addresses: [
                        .init(nil, city: "Mößlitz")
                    ])
            ]),
        // A UTF-8 byte order mark.
        VCardFixture(
            "folkerkinzel-vcards/Greek_utf8_bom.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Ευάγγελος",
                    middle: "Οδυσσέας",
                    family: "Παπαθανασίου",
                    addresses: [
                        .init(nil, city: "Αθήνα")
                    ])
            ]),
        // ADR with CHARSET=Windows-1252 raw bytes; ADR;POSTAL has no label.
        VCardFixture(
            "folkerkinzel-vcards/LabelIssue.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Rudi",
                    family: "Wimmel",
                    organization: "Wurstdarm KG",
                    jobTitle: "Compliance Officer",
                    phones: [
                        .init(Label.work, "0987 /6543"),
                        .init(Label.home, "9876 /11223344"),
                    ],
                    emails: [.init(nil, "Wimmel@wurstdarm.de")],
                    addresses: [
                        .init(
                            Label.work, street: "Business-Straße 19", city: "Schaffhausen", postalCode: "76543",
                            country: "Deutschland"),
                        .init(
                            Label.home, street: "Freizeitweg 4", city: "Freizeithausen", postalCode: "12345",
                            country: "Deutschland"),
                        .init(
                            nil, street: "Sonstgasse 44", city: "Anderstadt", postalCode: "37465",
                            country: "Deutschland"),
                    ],
                    urls: [.init(Label.work, "wurstdarm.de")])
            ]),
        VCardFixture(
            "folkerkinzel-vcards/Outlook_v2.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Herr",
                    given: "Max",
                    middle: "Anderer",
                    family: "Mustermann",
                    suffix: "sen.",
                    organization: "Musterfirma GmbH",
                    jobTitle: "Musterposition",
                    note: .exact("Hier noch ein paar notizen"),
                    phones: [
                        .init(Label.work, "+49 (0611) 123456 - 11"),
                        .init(Label.home, "+49 (0611) 123456 - 12"),
                        .init(Label.phoneNumberMobile, "+49 (0611) 123456 - 14"),
                        .init(Label.phoneNumberWorkFax, "+49 (0611) 123456 - 13"),
                    ],
                    emails: [.init(nil, "max.mustermann@musterfirma.de")],
                    addresses: [
                        .init(
                            Label.work, street: "Musterstrasse 12", city: "Wiesbaden", state: "Hessen",
                            postalCode: "65201", country: "Deutschland")
                    ],
                    urls: [.init(Label.work, "https://www.musterfirma.de")],
                    photo: .init(.jpeg, bytes: 23182, sha256: "9a42fca384c82665"))
            ]),
        VCardFixture(
            "folkerkinzel-vcards/Photo_v3.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Emma",
                    family: "Musterfrau",
                    birthday: "2011-03-17",
                    phones: [
                        .init(Label.work, "03456-78910"),
                        .init(Label.home, "03456-10987"),
                        .init(Label.phoneNumberMobile, "0160-45678910"),
                    ],
                    emails: [.init(Label.home, "emma.musterfrau@googlemail.com")],
                    addresses: [
                        .init(
                            Label.home, street: "Wiesenstr. 25", city: "Grünstadt OT Gelbdorf", postalCode: "06789",
                            country: "Deutschland")
                    ],
                    photo: .init(.jpeg, bytes: 1626, sha256: "4114f117eb2e3778"))
            ]),
        // Raw Windows-1251 without CHARSET. With the default fallback (Windows-1252) the text is mojibake, as
        // documented; with `fallbackEncoding: .windowsCP1251` it reads correctly (next entry).
        VCardFixture(
            "folkerkinzel-vcards/Ukrainian_cp1251.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Â³òàë³é",
                    middle: "Âîëîäèìèðîâè÷",
                    family: "Êëè÷êî",
                    addresses: [
                        .init(nil, city: "Êè¿â")
                    ])
            ]),
        VCardFixture(
            "folkerkinzel-vcards/WhatsAppIssue.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "zzMad Perla 45",
                    note: .exact("PERLA\nmadrid"),
                    phones: [
                        .init(Label.home, "7yy-zzz-xxx"),
                        .init("WhatsApp", "7yy-zzz-xxx"),
                    ],
                    urls: [.init(nil, "https://www.xxxxxx")])
            ]),
        VCardFixture(
            "folkerkinzel-vcards/Ukrainian_cp1251.vcf", fallbackEncoding: .windowsCP1251,
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Віталій",
                    middle: "Володимирович",
                    family: "Кличко",
                    addresses: [
                        .init(nil, city: "Київ")
                    ])
            ]),
        // Bare 2.1 parameters include `utf-8` and `QUOTED-PRINTABLE`; `PHOTO;JPEG;B:` is base64 (a truncated JPEG);
        // X-WAB-WEDDING_ANNIVERSARY and X-WAB-SPOUSE_NAME are read.
        VCardFixture(
            "folkerkinzel-vcards/v2_1.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Dr.",
                    given: "Max",
                    middle: "Middle Name",
                    family: "Mustermann",
                    nickname: "Maxl",
                    organization: "Firma",
                    department: "Führungsetage",
                    jobTitle: "Position",
                    note: .affixes(
                        "Kommentar ÄÄÄÄÄÄ ääääää ÖÖÖÖÖÖ öööööö ÜÜ", "ÖÖ öööööö ÜÜÜÜÜÜ üüüüüü ßßßßßß", count: 353),
                    birthday: "1972-01-31",
                    dates: [.init(Label.dateAnniversary, "2000-12-24")],
                    phones: [
                        .init(Label.work, "Tel geschäftlich"),
                        .init(Label.home, "Tel privat"),
                        .init(Label.phoneNumberMobile, "Handy"),
                        .init(nil, "Other Phone"),
                        .init(Label.phoneNumberPager, "Pager"),
                        .init(Label.phoneNumberWorkFax, "0123/579"),
                        .init(Label.phoneNumberHomeFax, "Fax privat"),
                    ],
                    emails: [
                        .init(nil, "privat@folker-kinzel.de"), .init(nil, "business@folker-kinzel.de"),
                        .init(nil, "andere@folker-kinzel.de"),
                    ],
                    addresses: [
                        .init(
                            Label.work, street: "1\nFirmenstraße", city: "Ort Firma", state: "Bundesland Firma",
                            postalCode: "PLZFirma", country: "Land Firma"),
                        .init(
                            Label.home, street: "Straße", city: "Ort", state: "Bundesland", postalCode: "PLZ",
                            country: "Land"),
                    ],
                    urls: [.init(Label.home, "http://www.privat.de"), .init(Label.work, "http://www.musterworks.de")],
                    relations: [.init(Label.contactRelationSpouse, "Partner")],
                    photo: .init(.jpeg, bytes: 70, sha256: "c0ad8ab1d8f04de3"))
            ]),
        // Empty X-ABLabels mean no label; the PHOTO URL is left out; a grouped ORG with an empty X-ABLabel warns
        // (orphan label); the leading space of ` blablö@blub.com` is trimmed; `homeFax` is free text.
        VCardFixture(
            "folkerkinzel-vcards/v3.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Folker",
                    family: "Kinzel",
                    birthday: "1978-03-11",
                    phones: [
                        .init(nil, "0123-45678")
                    ],
                    emails: [.init(nil, "email1@wumms.de"), .init(nil, "email2@folker-kinzel.de")],
                    addresses: [
                        .init(nil, street: "Berliner Str. 85", city: "Halle", postalCode: "06789", country: "DE")
                    ],
                    urls: [.init(nil, "www.folker-kinzel.de")]),
                VCardExpectedCard(
                    index: 1,
                    given: "WSF",
                    family: "KMS",
                    organization: "KMS Außenstelle",
                    phones: [
                        .init(Label.home, "01234-303776"),
                        .init("homeFax", "03443-333440"),
                    ],
                    emails: [.init(nil, "blablö@blub.com")]),
            ],
            warnings: [.init(.photoURLIgnored, line: 17), .init(.orphanLabel, line: 29)]),
        // The same as v3.vcf in Windows-1252 without CHARSET (and no SOURCE line, another phone number).
        VCardFixture(
            "folkerkinzel-vcards/v3Ansi.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Folker",
                    family: "Kinzel",
                    birthday: "1978-03-11",
                    phones: [
                        .init(nil, "0123-45678")
                    ],
                    emails: [.init(nil, "email1@wumms.de"), .init(nil, "email2@folker-kinzel.de")],
                    addresses: [
                        .init(nil, street: "Berliner Str. 85", city: "Halle", postalCode: "06789", country: "DE")
                    ],
                    urls: [.init(nil, "www.folker-kinzel.de")]),
                VCardExpectedCard(
                    index: 1,
                    given: "WSF",
                    family: "KMS",
                    organization: "KMS Außenstelle",
                    phones: [
                        .init(Label.home, "03443-303776"),
                        .init("homeFax", "03443-333440"),
                    ],
                    emails: [.init(nil, "blablö@blub.com")]),
            ],
            warnings: [.init(.photoURLIgnored, line: 16), .init(.orphanLabel, line: 28)]),
        // UTF-16LE with a byte order mark and CRLF.
        VCardFixture(
            "folkerkinzel-vcards/v3Utf16Bom.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Folker",
                    family: "Kinzel",
                    birthday: "1978-03-11",
                    phones: [
                        .init(nil, "0123-45678")
                    ],
                    emails: [.init(nil, "email1@wumms.de"), .init(nil, "email2@folker-kinzel.de")],
                    addresses: [
                        .init(nil, street: "Berliner Str. 85", city: "Halle", postalCode: "06789", country: "DE")
                    ],
                    urls: [.init(nil, "www.folker-kinzel.de")]),
                VCardExpectedCard(
                    index: 1,
                    given: "WSF",
                    family: "KMS",
                    organization: "KMS Außenstelle",
                    phones: [
                        .init(Label.home, "03443-303776"),
                        .init("homeFax", "03443-333440"),
                    ],
                    emails: [.init(nil, "blablö@blub.com")]),
            ],
            warnings: [.init(.photoURLIgnored, line: 16), .init(.orphanLabel, line: 28)]),
        // Card 1 has BDAY:19723101 (month 31): the model refuses it, so card 1 is rejected at line 22; card 0 imports.
        VCardFixture(
            "folkerkinzel-vcards/v4.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Gerda",
                    family: "Möhrke",
                    organization: "KiTa Öhrdingen",
                    phones: [
                        .init(Label.work, "034441/ 2 22 67"),
                        .init(Label.phoneNumberOtherFax, "034441/ 39 23 34"),
                    ],
                    emails: [.init(Label.home, "info@kinderland-blubblub.de")],
                    urls: [.init(Label.work, "www.kinderland-ufftata.de")])
            ],
            rejected: [.init(index: 1, line: 22, .invalidDate)],
        ),
        // Lowercase names, VERSION near the end, empty values (skipped), raw UTF-8 in a 2.1 card.
        VCardFixture(
            "ical4j-vcard/4b62872a-849-0.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Herr",
                    given: "Franz",
                    middle: "M.",
                    family: "Branntwein",
                    phones: [
                        .init(Label.home, "0221 12345678")
                    ],
                    emails: [.init(nil, "franz.m.branntwein@example.com")],
                    addresses: [
                        .init(
                            nil, street: "Medizinstraße 4711", city: "Köln", state: "Nordrhein-Westfalen",
                            postalCode: "50441", country: "Deutschland")
                    ])
            ]),
        // Group WORK. without X-ABLabel gives no label.
        VCardFixture(
            "ical4j-vcard/Simon_Perreault.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Simon",
                    family: "Perreault",
                    suffix: "ing. jr.,M.Sc.",
                    organization: "Viagenie",
                    birthday: "1983-02-03",
                    phones: [
                        .init(nil, "+1-418-656-9254;ext=102"),
                        .init(Label.phoneNumberMobile, "+1-418-262-6501"),
                        .init(Label.phoneNumberOtherFax, "+1-418-656-9257"),
                    ],
                    emails: [.init(nil, "simon.perreault@viagenie.ca")],
                    addresses: [
                        .init(
                            nil, street: "2600 boul. Laurier, suite 625", city: "Quebec", state: "QC",
                            postalCode: "G1V 4W1", country: "Canada")
                    ])
            ]),
        // X-MS-CARDPICTURE is not the contact's photo and is skipped; trailing white-space lines after END.
        VCardFixture(
            "ical4j-vcard/vcard-antoni-cardpicture.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Antoni",
                    family: "Mylka",
                    organization: "AM Services",
                    department: "Police",
                    phones: [
                        .init(Label.work, "(043) 7245-7234"),
                        .init(Label.phoneNumberMobile, "0634 272 451"),
                        .init(Label.phoneNumberWorkFax, "(012) 7234-8012"),
                    ],
                    emails: [.init(nil, "antoni@amservices.pl")],
                    addresses: [
                        .init(Label.work, country: "Poland")
                    ])
            ]),
        VCardFixture(
            "ical4j-vcard/vcard-antoni-outlook2003.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Herr",
                    given: "Antoni",
                    middle: "Jozef",
                    family: "Mylka",
                    suffix: "jun.",
                    nickname: "Ant",
                    organization: "DFKI",
                    department: "Knowledge-Management",
                    jobTitle: "Intern",
                    note: .exact("These are some notes about antoni.\n"),
                    birthday: "1980-01-18",
                    phones: [
                        .init(Label.work, "49 631 234 341"),
                        .init(Label.home, "48 691 342 341"),
                        .init(Label.phoneNumberMobile, "48 91 3 175 234"),
                    ],
                    emails: [.init(nil, "antoni_mylka@somedomain.com")],
                    addresses: [
                        .init(
                            Label.work, street: "3.10\nTrippstadter Str. 122", city: "Kaiserslautern",
                            state: "Rheinland-Pfalz", postalCode: "67663", country: "Deutschland"),
                        .init(
                            Label.home, street: "Budryka 2/1110", city: "Krakow", state: "malopolskie",
                            postalCode: "30-072", country: "Polen"),
                    ],
                    urls: [.init(Label.work, "http://antoni.mylka.com")])
            ]),
        // `BEGIN:VCARD ` with a trailing space; `ADR;WORK:;Szczecin` has the city in the extended slot.
        VCardFixture(
            "ical4j-vcard/vcard-dirk-whitespaceafterbegin.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    family: "dirk",
                    note: .exact("The canonical Dirk\n"),
                    emails: [.init(nil, "dirk@sap.com")],
                    addresses: [
                        .init(Label.work, street: "Szczecin")
                    ])
            ]),
        // VERSION:4 (not 4.0).
        VCardFixture(
            "ical4j-vcard/vcard-group.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    addresses: [
                        .init(
                            Label.work, street: "Lierstr. 20a", city: "München", postalCode: "80639",
                            country: "Deutschland")
                    ])
            ]),
        // 30 Mac cards in ISO-8859-1 without CHARSET; X-ABADR:se is kept as written; X-ABShowAs:COMPANY makes
        // card 4 an organization.
        VCardFixture(
            "ical4j-vcard/vcard-vCards-SAP.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Gwendolina",
                    family: "Brown",
                    emails: [.init(Label.work, "Gwendolina.Brown@sap.com")]),
                VCardExpectedCard(
                    index: 1,
                    given: "Peter",
                    family: "Smalholtz",
                    organization: "SAP",
                    phones: [
                        .init(Label.work, "§")
                    ],
                    emails: [.init(Label.work, "Peter.Smalholtz@sap.com")]),
                VCardExpectedCard(
                    index: 2,
                    given: "Kristina",
                    family: "Krull",
                    organization: "SAP",
                    emails: [.init(Label.work, "Kristina.Krull@sap.com")]),
                VCardExpectedCard(
                    index: 3,
                    given: "Rutger",
                    family: "Dreger",
                    organization: "SAP",
                    emails: [.init(Label.work, "Rutger.Dreger@sap.com")]),
                VCardExpectedCard(
                    index: 4,
                    type: .organization,
                    given: "Frida",
                    family: "Töcken",
                    organization: "Karlsruhe Travel",
                    emails: [.init(Label.work, "Frida.Tocken@karlsruhetravel.com")]),
                VCardExpectedCard(
                    index: 5,
                    given: "Ulla",
                    family: "Bernadotte",
                    emails: [.init(Label.work, "Ullis@yahoo.com")]),
                VCardExpectedCard(
                    index: 6,
                    given: "Albert",
                    family: "Aubrey",
                    organization: "SAP",
                    emails: [.init(Label.work, "Albert.Aubrey@sap.com")]),
                VCardExpectedCard(
                    index: 7,
                    given: "Helmut",
                    family: "Meyer",
                    organization: "SAP",
                    emails: [.init(Label.work, "Helmut.Meyer@sap.com")]),
                VCardExpectedCard(
                    index: 8,
                    given: "Marco",
                    family: "Andriotti",
                    organization: "SAP",
                    phones: [
                        .init(Label.work, "+44 28 90930084")
                    ],
                    emails: [.init(Label.work, "Marco.Andriotti@sap.com")],
                    addresses: [
                        .init(
                            Label.work, street: "Shore Road", city: "Newtownabbey", postalCode: "BT37 0QB",
                            country: "United Kingdom", isoCountryCode: "se")
                    ]),
                VCardExpectedCard(
                    index: 9,
                    given: "Ingrid",
                    family: "Spaßlund",
                    organization: "Nike",
                    emails: [.init(Label.work, "Ingrid.Spasslund@nikesport.com")]),
                VCardExpectedCard(
                    index: 10,
                    given: "Adam",
                    family: "Atkins",
                    organization: "SAP",
                    emails: [.init(Label.work, "Adam.Atkins@sap.com")]),
                VCardExpectedCard(
                    index: 11,
                    given: "Martin",
                    family: "Williams",
                    organization: "SAP",
                    phones: [
                        .init(Label.work, "+61 7 3259 9599")
                    ],
                    emails: [.init(Label.work, "Martin.Williams@sap.com")],
                    addresses: [
                        .init(
                            Label.work, street: "133 Mary Street", city: "Brisbane", postalCode: "QLD 4000",
                            country: "Australia", isoCountryCode: "se")
                    ]),
                VCardExpectedCard(
                    index: 12,
                    given: "Margit",
                    family: "Stern",
                    phones: [
                        .init(Label.work, "+4978432748392")
                    ],
                    addresses: [
                        .init(
                            Label.work, street: "Brotmannstraße 7", city: "Siegertsbrunn", postalCode: "85635",
                            country: "Deutschland", isoCountryCode: "se")
                    ]),
                VCardExpectedCard(
                    index: 13,
                    given: "Frederica",
                    family: "Fuchs",
                    emails: [.init(Label.work, "Frederica_64@hotmail.com")]),
                VCardExpectedCard(
                    index: 14,
                    given: "Günther",
                    family: "Blümchen",
                    organization: "Oracle",
                    phones: [
                        .init(Label.work, "+1.650.506.7000")
                    ],
                    emails: [.init(Label.work, "Guenther.Bluemchen@oracle.com")],
                    addresses: [
                        .init(
                            Label.work, street: "500 Oracle Parkway", city: "Redwood Shores", postalCode: "CA 94065",
                            country: "United States of America", isoCountryCode: "se")
                    ]),
                VCardExpectedCard(
                    index: 15,
                    given: "Hans",
                    family: "Kohler",
                    organization: "SAP",
                    emails: [.init(Label.work, "Hans.Kohler@sap.com")]),
                VCardExpectedCard(
                    index: 16,
                    given: "Fritz",
                    family: "Lang",
                    organization: "SAP",
                    emails: [.init(Label.work, "Fritz.Lang@sap.com")]),
                VCardExpectedCard(
                    index: 17,
                    given: "Claudia",
                    family: "Stern",
                    organization: "SAP",
                    phones: [
                        .init(Label.work, "+49(721)123456"),
                        .init(Label.phoneNumberMobile, "+49(175)1234567"),
                    ],
                    emails: [.init(Label.work, "claudi-1@csc.kth.se")],
                    addresses: [
                        .init(
                            Label.work, street: "Vincenz-Priessnitz-Str. 1", city: "Karlsruhe", postalCode: "76131",
                            country: "Germany", isoCountryCode: "se")
                    ]),
                VCardExpectedCard(
                    index: 18,
                    given: "Harald",
                    family: "Treutiger",
                    organization: "Siemens",
                    phones: [
                        .init(Label.work, "+94 (0800) 2255337")
                    ],
                    emails: [.init(Label.work, "Harald.Treutiger@siemens.de")],
                    addresses: [
                        .init(
                            Label.work, street: "Werner-von-Siemens-Straße 6", city: "Augsburg", postalCode: "86159",
                            country: "Deutschland", isoCountryCode: "se")
                    ]),
                VCardExpectedCard(
                    index: 19,
                    given: "Berit",
                    family: "Müller",
                    organization: "SAP",
                    emails: [.init(Label.work, "Berit.Mueller@sap.com")]),
                VCardExpectedCard(
                    index: 20,
                    given: "Mathilde",
                    family: "Wolf",
                    organization: "SAP",
                    emails: [.init(Label.work, "Mathilde.Wolf@sap.com")]),
                VCardExpectedCard(
                    index: 21,
                    given: "Dirk",
                    family: "Hageman",
                    organization: "SAP",
                    phones: [
                        .init(Label.work, "+49(721)847932"),
                        .init(Label.phoneNumberMobile, "+49(175)9876543"),
                    ],
                    emails: [.init(Label.work, "dirk-1@csc.kth.se")],
                    addresses: [
                        .init(
                            Label.work, street: "Vincenz-Priessnitz-Str. 1", city: "Karlsruhe", postalCode: "76131",
                            country: "Germany", isoCountryCode: "se")
                    ]),
                VCardExpectedCard(
                    index: 22,
                    given: "Daniel",
                    family: "Wimmerman",
                    emails: [.init(Label.work, "Daniel.Wimmerman@sap.com")]),
                VCardExpectedCard(
                    index: 23,
                    given: "Daniel",
                    family: "Kurtz",
                    organization: "SAP",
                    emails: [.init(Label.work, "Daniel.Kurtz@sap.com")]),
                VCardExpectedCard(
                    index: 24,
                    given: "Caspar",
                    family: "Schnurrbart",
                    emails: [.init(Label.work, "Caspar.Schnurrbart@sap.com")]),
                VCardExpectedCard(
                    index: 25,
                    given: "Monika",
                    family: "Setter",
                    organization: "SAP",
                    emails: [.init(Label.work, "Monika.Setter@sap.com")]),
                VCardExpectedCard(
                    index: 26,
                    given: "Heinrich",
                    family: "Glans",
                    organization: "SAP",
                    emails: [.init(Label.work, "Heinrich.Glans@sap.com")]),
                VCardExpectedCard(
                    index: 27,
                    given: "Ambrosia",
                    family: "Fischer",
                    organization: "SAP",
                    phones: [
                        .init(Label.work, "+49(721)894763"),
                        .init(Label.phoneNumberMobile, "+49(175)74632934"),
                    ],
                    emails: [.init(Label.work, "Ambrosia.Fischer@sap.com")],
                    addresses: [
                        .init(
                            Label.work, street: "Vincenz-Priessnitz-Str. 1", city: "Karlsruhe", postalCode: "76131",
                            country: "Germany", isoCountryCode: "se")
                    ]),
                VCardExpectedCard(
                    index: 28,
                    given: "Markus",
                    family: "Sprung",
                    organization: "SAP",
                    emails: [.init(Label.work, "Markus.Sprung@sap.com")]),
                VCardExpectedCard(
                    index: 29,
                    given: "Diana",
                    family: "Smith",
                    organization: "SAP",
                    emails: [.init(Label.work, "Diana.Smith@sap.com")]),
            ]),
        // `$!<Email>!$` and `$!<Home>!$` without underscores: canonical form, and Label.home.
        VCardFixture(
            "jeroendesloovere-vcard/example.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Jeroen",
                    family: "Desloovere",
                    emails: [.init("_$!<Email>!$_", "site@example.com")],
                    urls: [.init(Label.home, "http://www.jeroendesloovere.be")])
            ]),
        // 4.0: tel: URIs, BDAY date-time, IMPP xmpp: without X-SERVICE-TYPE is Jabber, empty PHOTO skipped.
        VCardFixture(
            "kcontacts/testfullvcard.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Mr",
                    given: "Sherlock",
                    family: "Holmes",
                    nickname: "Shirley",
                    jobTitle: "Detective",
                    birthday: "1953-10-15",
                    dates: [.init(Label.dateAnniversary, "1996-04-15")],
                    phones: [
                        .init(Label.home, "+44-555-555-5555;ext=5555"),
                        .init(Label.phoneNumberMobile, "+44-555-555-6666"),
                        .init(Label.work, "+44-555-555-7777"),
                    ],
                    emails: [
                        .init(Label.home, "sherlock.holmes@gmail.com"),
                        .init(Label.work, "detective@sherlockholmes.com"),
                    ],
                    addresses: [
                        .init(
                            nil, street: "221B Baker Street", city: "London", postalCode: "NW1",
                            country: "United Kingdom")
                    ],
                    urls: [.init(nil, "https://sherlockholmes.com")],
                    instantMessages: [.init(nil, "Jabber:detective@sherlockholmes.com")])
            ]),
        // Android QP soft breaks that split UTF-8; `Note:` in mixed case.
        VCardFixture(
            "kcontacts/vcard10.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    organization: "Bike Shop",
                    note: .exact("This one has a funny character at the end in the contact list"),
                    addresses: [
                        .init(Label.work, street: "DDDDDDDDDDDDDDD-Staße 2\n00000 DDDDDDDDDD")
                    ]),
                VCardExpectedCard(
                    index: 1,
                    given: "Broken",
                    note: .exact(
                        "This one's URL field is truncated (see contact's edit form). Remove the linebreak in the VCF's address field and the URL will will be correct."
                    ),
                    addresses: [
                        .init(Label.home, street: "AAAAAAA-AäAAAAA 11", city: "Urt", postalCode: "00000")
                    ],
                    urls: [.init(nil, "http://some-webseite.com")]),
                VCardExpectedCard(
                    index: 2,
                    given: "Broken",
                    note: .exact(
                        "this is identical to \"Website broken\", but with Note and URL swapped. The Note field does not get truncated as the URL field does."
                    ),
                    addresses: [
                        .init(Label.home, street: "AAAAAAA-AäAAAAA 11", city: "Urt", postalCode: "00000")
                    ],
                    urls: [.init(nil, "http://some-webseite.com")]),
                VCardExpectedCard(
                    index: 3,
                    prefix: "Dr. med.",
                    given: "Surname",
                    family: "Name",
                    jobTitle: "Facharzt für Allgemeinmedizin",
                    note: .exact(
                        "Sprechzeiten:\nMo   8–12, 15–18\nDi     8–12\nMi    8–12, 14–15\nDo 14–19\nFr     8–12")),
                VCardExpectedCard(
                    index: 4,
                    given: "Second",
                    family: "Doctor",
                    jobTitle: "Dentist",
                    note: .exact(
                        "Sprechzeiten:\nMo   8–13\nDi   10–12, 13–18\nMi  10–12, 13–18\nDo  13–18\nFr      8–12"),
                    addresses: [
                        .init(Label.work, street: "DDDDDDDDDDDstraße 26\n00000 DDDDDDDDDDDDDDDDD")
                    ]),
            ]),
        // Two PHOTOs: the first counts.
        VCardFixture(
            "kcontacts/vcard12.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Good",
                    family: "Looking",
                    emails: [.init(Label.work, "goodlooking@example.com")],
                    photo: .init(.png, bytes: 159, sha256: "9752df19fcc157d9"))
            ],
            warnings: [.init(.duplicateProperty, line: 10)]),
        // RELATED;TYPE=child;VALUE=text in 3.0; X-ABLABEL in upper case.
        VCardFixture(
            "kcontacts/vcard15.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Test",
                    family: "Tester",
                    phones: [
                        .init(Label.home, "+1-800-123456")
                    ],
                    urls: [.init("random_label", "http://www.example.com")],
                    relations: [.init(Label.contactRelationChild, "Child Tester")])
            ]),
        // Netscape-era lowercase 2.1 with VERSION after other properties.
        VCardFixture(
            "kcontacts/vcard3.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "ian",
                    family: "geiser",
                    organization: "Source eXtreme",
                    jobTitle: "VP of Engineering",
                    emails: [.init(nil, "geiseri@yahoo.com")])
            ]),
        // No VERSION (read as 3.0) and a bare `FN` line without a colon (an empty FN).
        VCardFixture(
            "kcontacts/vcard4.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    organization: "Ximian, Inc.",
                    note: .exact("Welcome to the Ximian Addressbook."),
                    phones: [
                        .init(Label.work, "(617) 236-0442"),
                        .init(Label.phoneNumberWorkFax, "(617) 236-8630"),
                    ],
                    emails: [.init(nil, "hello@ximian.com")],
                    urls: [.init(nil, "www.ximian.com/")])
            ],
            warnings: [.init(.propertyWithoutValue, line: 3), .init(.missingVersion, line: 1)]),
        // VERSION near the end; BDAY with a time; KDE's X-KADDRESSBOOK-X-* relations and anniversary are read.
        VCardFixture(
            "kcontacts/vcard5.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Heiko",
                    family: "Mustermann",
                    nickname: "clown",
                    organization: "KDE",
                    note: .exact("I'm a friendly note text,\nplease copy me to your address book..."),
                    birthday: "1955-07-19",
                    dates: [.init(Label.dateAnniversary, "1982-07-07")],
                    phones: [
                        .init(Label.home, "0351 223344"),
                        .init(Label.work, "0351 443322"),
                        .init(Label.phoneNumberMobile, "0173 223344"),
                    ],
                    emails: [.init(nil, "heiko.mustermann@freenet.org"), .init(nil, "heiko8@tst.inf.tu-dresden.de")],
                    addresses: [
                        .init(
                            Label.home, street: "Buehlauer Strasse 45", city: "Dresden", state: "Sachsen",
                            postalCode: "01327", country: "Germany"),
                        .init(
                            Label.work, street: "Prager Strasse 55", city: "Dresden", state: "Sachsen",
                            postalCode: "01066", country: "Germany"),
                    ],
                    urls: [.init(nil, "http://www.mustermann.de/~heiko/")],
                    relations: [
                        .init(Label.contactRelationAssistant, "Mr. Smithers"),
                        .init(Label.contactRelationManager, "Mr. Burnes"),
                        .init(Label.contactRelationSpouse, "femal clown"),
                    ],
                    photo: .init(.png, bytes: 3732, sha256: "888965f3a329c61b"))
            ]),
        // No VERSION; a LABEL quoted-printable soft break continues on a plain line; nothing else to import.
        VCardFixture(
            "kcontacts/vcard7.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0)
            ],
            warnings: [.init(.missingVersion, line: 1)]),
        // `\N` escapes.
        VCardFixture(
            "kcontacts/vcard8.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    family: "test",
                    note: .exact("line one\nline two\nline three\n"))
            ]),
        // ownCloud folded in the middle of UTF-8 sequences; the bytes are unfolded before decoding. A fold before a
        // space keeps the second space.
        VCardFixture(
            "kcontacts/vcard9.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    family: "123ㄓㄕㄖbcdeαβγδαβγδαβγδαβγδαβγδαβγδαβㄤㄓㄕㄖ",
                    note: .exact(
                        "Длинный комментарий на русском языке, чтобы в результате получилась строка более 70 символов.")
                )
            ]),
        // Property names with `/` are skipped as unknown.
        VCardFixture(
            "kcontacts/vcard_legacy_messaging_fields.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "My",
                    family: "Name")
            ]),
        // `X-ABShowAs-ABShowAs` is not X-ABShowAs, so this is a person; an item group without X-ABLabel.
        VCardFixture(
            "kcontacts/vcardwithitemasapplesupport.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "SOMENAME",
                    organization: "SOME COMPANY",
                    note: .exact("SOME NOTES"),
                    phones: [
                        .init(Label.work, "(111) 111-1111")
                    ],
                    addresses: [
                        .init(
                            Label.work, street: "STREET", city: "CITY", state: "STATE", postalCode: "ZIP",
                            country: "COUNTRY")
                    ])
            ]),
        VCardFixture(
            "py-vobject/radicale-1587.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    prefix: "Prefix",
                    given: "Given",
                    middle: "Additional",
                    family: "Family",
                    suffix: "Suffix")
            ]),
        // `PHOTO;BASE64:` with two-space indents and LF-only lines.
        VCardFixture(
            "sabre-vobject/issue153.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    given: "Test",
                    family: "Benutzer",
                    photo: .init(.jpeg, bytes: 19685, sha256: "48b3723a31fd05f2"))
            ]),
        // 2.1 `PHOTO;ENCODING=BASE64;JPEG:` with two-space indents and a blank line before END.
        VCardFixture(
            "sabre-vobject/issue64.vcf",
            cards: [
                VCardExpectedCard(
                    index: 0,
                    photo: .init(.jpeg, bytes: 19685, sha256: "48b3723a31fd05f2"))
            ]),
    ]
}
