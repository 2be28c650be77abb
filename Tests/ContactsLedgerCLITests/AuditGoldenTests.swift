import Foundation
import Testing

/// `log` and `history` of the golden store ledger, a ledger with fixed identifiers, request ids and
/// commit times checked in under `Tests/ContactsLedgerTests/Golden/store-v2`: every byte of their
/// text is fixed, so any change to how the audit is printed shows here.
@Suite("contacts-ledger: the audit of the golden ledger")
struct AuditGoldenTests {
    /// A copy of the golden ledger in a work directory, private as the tool requires.
    static func goldenLedger() throws -> WorkDirectory {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ContactsLedgerTests/Golden/store-v2").path
        let work = WorkDirectory()
        try FileManager.default.copyItem(atPath: source, toPath: work.ledger)
        for item in [""] + (FileManager.default.subpaths(atPath: work.ledger) ?? []) {
            let path = work.ledger + (item.isEmpty ? "" : "/" + item)
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            try FileManager.default.setAttributes(
                [.posixPermissions: isDirectory.boolValue ? 0o700 : 0o600], ofItemAtPath: path)
        }
        return work
    }

    @Test("log prints every record of the golden ledger as expected, byte for byte")
    func log() throws {
        let work = try Self.goldenLedger()
        #expect(try work.succeed(["log"]).stdout == Self.expectedLog + "\n")
        #expect(try work.succeed(["log", "--no-pager"]).stdout == Self.expectedLog + "\n")
    }

    @Test("history prints the rich contact's revisions as expected, byte for byte")
    func history() throws {
        let work = try Self.goldenLedger()
        let text = try work.succeed(["history", "00000000-0000-4000-8000-0000000000c1"]).stdout
        #expect(text == Self.expectedHistory + "\n")
    }

    static let expectedLog = #"""
        record 1 743fb5e90ab06ea5a452312b903d7341b6b3b2f324cb3a95ce89d6b8604fb484
        Author:  importer
        Date:    2026-12-01T06:08:12.802580Z
        Request: 00000000-0000-4000-8000-000000000001

            add contact 00000000-0000-4000-8000-0000000000c1 (Dr. Zoë Ana Ñúñez-Łukasiewicz PhD)
                + Prefix: Dr.
                + Given name: Zoë
                + Middle name: Ana
                + Family name: Ñúñez-Łukasiewicz
                + Previous family name: Smith
                + Suffix: PhD
                + Nickname: Zo
                + Phonetic given name: Zo-eh
                + Phonetic middle name: Ah-na
                + Phonetic family name: Noo-nyez
                + Organization: Golden Records
                + Phonetic organization: Gold-en
                + Department: Archive
                + Job title: Archivist
                + Note: Met at the 🏛 museum.
                +       Second line.
                + Birthday: --02-29
                + Birthday (other calendar): --01-15 (chinese calendar)
                Date:
                    + anniversary: 2001-06-30
                Phone:
                    + mobile: +44 20 7946 0958
                    + Boat: 555-0100
                Email:
                    + home: zoe@example.org
                Address:
                    + work: 1 Vault Road, Floor 2, Old Town, 31-001 Kraków, Poland
                URL:
                    + homepage: https://example.org/zoe
                Related:
                    + sister: Ada
                Profile:
                    + Twitter zoe https://example.social/zoe
                Messaging:
                    + work: Jabber zoe
                + Image: 12 bytes
            add contact 00000000-0000-4000-8000-0000000000c2 (Acme Corporation)
                + Organization: Acme Corporation
                Email:
                    + work: info@acme.example
            add contact 00000000-0000-4000-8000-0000000000c3 (Temporary)
                + Given name: Temporary

        record 2 e3f9c8968e2798479f4e8ab101f5a92845f24efc48b4cced99f911072aecefb8
        Author:  editor
        Date:    2026-12-01T06:08:12.908195Z
        Request: 00000000-0000-4000-8000-000000000002

            update contact 00000000-0000-4000-8000-0000000000c1
                - Job title: Archivist
                + Job title: Chief Archivist
                Phone:
                    + work: +1 415 555 0199

        record 3 d63d2de017a0e81c25671039966159aedc7dfcdaddc901f9062ff25b28af413c
        Author:  editor
        Date:    2026-12-01T06:08:12.910036Z
        Request: 00000000-0000-4000-8000-000000000003

            add group 00000000-0000-4000-8000-0000000000a1 "Club"
            add group 00000000-0000-4000-8000-0000000000a2 "Inner"
            add group 00000000-0000-4000-8000-0000000000a2 to group 00000000-0000-4000-8000-0000000000a1
            add 00000000-0000-4000-8000-0000000000c1 to group 00000000-0000-4000-8000-0000000000a1
            add 00000000-0000-4000-8000-0000000000c2 to group 00000000-0000-4000-8000-0000000000a1

        record 4 be1f0fa7602533815af7e43e97555b05c72e45c9f469d9329468014c16cb9cd1
        Author:  editor
        Date:    2026-12-01T06:08:12.910775Z
        Request: 00000000-0000-4000-8000-000000000004

            rename group 00000000-0000-4000-8000-0000000000a1 "Club" → "Golden Club"
            remove group 00000000-0000-4000-8000-0000000000a2 from group 00000000-0000-4000-8000-0000000000a1
            remove 00000000-0000-4000-8000-0000000000c2 from group 00000000-0000-4000-8000-0000000000a1

        record 5 e6436832dc9287b2417b0286a02081e250c3974988fb485e433c085c2b463fa6
        Author:  cleaner
        Date:    2026-12-01T06:08:12.911504Z
        Request: 00000000-0000-4000-8000-000000000005

            delete contact 00000000-0000-4000-8000-0000000000c3 (Temporary)
                - Given name: Temporary
            delete group 00000000-0000-4000-8000-0000000000a2 "Inner" (0 members)

        record 6 79f2bce3b76882fc3ff7be2b9e09657eda9d9d04bd9f949a25ec8cc00a269a05
        Author:  limited-app
        Date:    2026-12-01T06:08:12.918224Z
        Request: 1FCA962A-EBD2-495D-8CAF-927229FC59A2

            authorize limited-app: limited

        record 7 6b1743aaa523956a7c293e15aba45d3227972a1f520512ae45ffcd9b06407ebd
        Author:  limited-app
        Date:    2026-12-01T06:08:12.918769Z
        Request: 4131C3C7-50E1-437D-825A-9F17639AAB9D

            grant limited-app access to 00000000-0000-4000-8000-0000000000c1, 00000000-0000-4000-8000-0000000000c2

        record 8 d44f5b8a8b6b42df1be045564687f87c2637fd18757c5d268f4a5429cb156f68
        Author:  limited-app
        Date:    2026-12-01T06:08:12.919213Z
        Request: 290B383D-32EC-4292-9E10-A7CDD8AE7ACC

            revoke limited-app's access to 00000000-0000-4000-8000-0000000000c2
        """#

    static let expectedHistory = #"""
        record 1  created  2026-12-01T06:08:12.802580Z  by importer
            + Prefix: Dr.
            + Given name: Zoë
            + Middle name: Ana
            + Family name: Ñúñez-Łukasiewicz
            + Previous family name: Smith
            + Suffix: PhD
            + Nickname: Zo
            + Phonetic given name: Zo-eh
            + Phonetic middle name: Ah-na
            + Phonetic family name: Noo-nyez
            + Organization: Golden Records
            + Phonetic organization: Gold-en
            + Department: Archive
            + Job title: Archivist
            + Note: Met at the 🏛 museum.
            +       Second line.
            + Birthday: --02-29
            + Birthday (other calendar): --01-15 (chinese calendar)
            Date:
                + anniversary: 2001-06-30
            Phone:
                + mobile: +44 20 7946 0958
                + Boat: 555-0100
            Email:
                + home: zoe@example.org
            Address:
                + work: 1 Vault Road, Floor 2, Old Town, 31-001 Kraków, Poland
            URL:
                + homepage: https://example.org/zoe
            Related:
                + sister: Ada
            Profile:
                + Twitter zoe https://example.social/zoe
            Messaging:
                + work: Jabber zoe
            + Image: 12 bytes

        record 2  updated  2026-12-01T06:08:12.908195Z  by editor
            - Job title: Archivist
            + Job title: Chief Archivist
            Phone:
                + work: +1 415 555 0199
        """#
}
