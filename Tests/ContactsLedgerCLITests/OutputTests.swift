import ContactsEngine
import ContactsInterchange
import ContactsLedger
import ContactsModel
import Foundation
import LedgerAudit
import LedgerStorage
import Testing

@Suite("contacts-ledger: output")
struct OutputTests {
    @Test("export prints every contact as vCard (3.0 or 4.0) or JSON, as of a point")
    func export() throws {
        let work = try WorkDirectory().initLedger()
        let ada = try work.add(["--given", "Ada", "--family", "Lovelace", "--note", "exported", "--phone", "mobile=1"])
        _ = try work.add(["--given", "Grace"])
        let vcard = try work.succeed(["export"])
        #expect(vcard.stdout.components(separatedBy: "BEGIN:VCARD").count == 3)
        #expect(vcard.stdout.contains("VERSION:3.0"))
        #expect(vcard.stdout.contains("N:Lovelace;Ada;;;"))
        #expect(vcard.stdout.contains("NOTE:exported"))
        let four = try work.succeed(["export", "--vcard-version", "4.0", "--as-of", "1"])
        #expect(four.stdout.components(separatedBy: "BEGIN:VCARD").count == 2)
        #expect(four.stdout.contains("VERSION:4.0"))
        // What export writes, a vCard reader reads back.
        let read = try VCardSerialization.contacts(with: Data(vcard.stdout.utf8))
        #expect(read.map(\.givenName).sorted() == ["Ada", "Grace"])
        let json = try work.succeed(["export", "--json"]).json()
        #expect(json.arrayValue?.count == 2)
        #expect(json.arrayValue?.first { $0["identifier"] == .string(ada) }?["imageData"] == .null)
        expectFailure(try work.run(["export", "--vcard-version", "5"]), 64, mentioning: "--vcard-version")
    }

    @Test("list --json, export and log --json over thousands of contacts write exactly the library's forms")
    func largeOutputsMatchTheLibrary() throws {
        let work = try WorkDirectory().initLedger()
        let store = try ContactStore(ledgerAt: work.ledger, client: .fullAccess("test"), create: false)
        // Several batches of the writers, records of different sizes, and text that needs escaping.
        for batch in 0..<5 {
            var request = SaveRequest()
            for index in 0..<(batch * 400 + 1) {
                var contact = MutableContact()
                contact.givenName = index % 7 == 0 ? "Zoë \"\(index)\"" : "Given \(index)"
                contact.familyName = "Family\n\(batch)"
                contact.emailAddresses = [LabeledValue(label: Label.home, value: "p\(index)@example.com")]
                contact.phoneNumbers = [
                    LabeledValue(label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: "+1 202 555 \(index)"))
                ]
                contact.note = "note \(index)"
                request.add(contact, toContainerWithIdentifier: nil)
            }
            try store.execute(request)
        }
        var all = ContactFetchRequest(keysToFetch: [ContactKeySet.all])
        all.unifyResults = false
        var contacts: [Contact] = []
        try store.enumerateContacts(with: all) { contact, _ in contacts.append(contact) }
        #expect(contacts.count == 4_005)

        let json = try work.succeed(["export", "--json"])
        #expect(
            Array(json.stdout.utf8) == JSONValue.array(contacts.map(ContactJSON.value(for:))).serializedBytes() + [0x0A]
        )
        let vCardKeys = VCardSerialization.descriptorForRequiredKeys().union([.note])
        var request = ContactFetchRequest(keysToFetch: [vCardKeys])
        request.unifyResults = false
        var cards: [Contact] = []
        try store.enumerateContacts(with: request) { contact, _ in cards.append(contact) }
        #expect(
            try work.succeed(["export"]).stdout
                == String(decoding: try VCardSerialization.data(with: cards), as: UTF8.self))

        let listed = try work.succeed(["list", "--json"]).json().arrayValue ?? []
        var sorted = ContactFetchRequest(keysToFetch: [], sortOrder: .userDefault)
        sorted.unifyResults = true
        var order: [String] = []
        try store.enumerateContacts(with: sorted) { contact, _ in order.append(contact.identifier) }
        #expect(listed.map { $0["identifier"]?.stringValue ?? "" } == order)
        // Decoded in runs of contacts on the formatting threads, the sorted list is still the
        // library's JSON of each contact in the store's order, byte for byte.
        let listKeys = ContactKeySet.all.subtracting([.imageData, .thumbnailImageData])
        var listedContacts: [Contact] = []
        try store.enumerateContacts(with: ContactFetchRequest(keysToFetch: [listKeys], sortOrder: .userDefault)) {
            contact, _ in listedContacts.append(contact)
        }
        #expect(
            Array(try work.succeed(["list", "--json"]).stdout.utf8)
                == JSONValue.array(listedContacts.map(ContactJSON.value(for:))).serializedBytes() + [0x0A])

        let lines = try work.succeed(["log", "--json"]).stdout.split(separator: "\n").map(String.init)
        let entries = try LedgerAuditor(ledgerAt: work.ledger).entries()
        #expect(lines == entries.map { AuditJSON.value(for: $0).serialized() })
    }

    @Test(
        "log --json stops at a record that cannot be decoded, after the lines of every record before it",
        // Records are formatted a batch of hundreds at a time, several batches at once: the
        // last case's bad record lies in a batch formatted while the ones before it are written.
        arguments: [(8, 1), (8, 3), (8, 5), (8, 8), (1_400, 1_100)])
    func logStopsAtAnUndecodableRecord(records: Int, position: Int) throws {
        let work = try WorkDirectory().initLedger()
        let journal = try Journal.open(at: work.ledger)
        defer { journal.close() }
        for sequence in 1...records {
            var contact = ContactValues()
            contact.givenName = "Record \(sequence)"
            let event = LedgerEvent(operations: [
                .addContact(
                    identifier: UUID().uuidString, containerIdentifier: "default", createdBy: "writer", values: contact)
            ])
            // Bytes no schema version decodes, in a frame whose checksum and chain are sound.
            let payload = sequence == position ? [UInt8](repeating: 0xFF, count: 40) : EventCodec.encode(event)
            _ = try journal.appendAndWait(
                JournalEntry(author: "writer", schemaVersion: EventCodec.currentSchemaVersion, payload: payload))
        }
        let result = try work.run(["log", "--json"])
        expectFailure(result, 65, mentioning: "record \(position) at")
        let sequences = try result.lines.map { try JSONValue(parsing: $0)["sequence"]?.intValue ?? 0 }
        #expect(sequences == Array(1..<position).map(Int64.init))
    }

    @Test("When output is not a terminal there are no escape codes and nothing extra on stderr")
    func plainWhenPiped() throws {
        let work = try WorkDirectory().initLedger()
        let identifier = try work.add(["--given", "Ada"])
        for arguments in [["show", identifier], ["log"], ["history", identifier], ["verify"], ["replay", "--check"]] {
            let result = try work.succeed(arguments)
            #expect(!result.stdout.contains("\u{1B}"), "\(arguments)")
            #expect(result.stderr.isEmpty, "\(arguments)")
        }
    }

    static let hasScript = FileManager.default.isExecutableFile(atPath: "/usr/bin/script")

    /// Runs the tool under a pseudo-terminal (util-linux `script`), so that its output is a terminal.
    func runInTerminal(_ arguments: [String], in work: WorkDirectory, noColor: Bool) throws -> String {
        let command = ([try toolPath()] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = URL(fileURLWithPath: work.path)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = noColor ? "1" : nil
        environment["TERM"] = "xterm"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("On a terminal, headers are coloured unless NO_COLOR is set", .enabled(if: hasScript))
    func colour() throws {
        let work = try WorkDirectory().initLedger()
        let identifier = try work.add(["--given", "Ada"])
        let coloured = try runInTerminal(["show", identifier], in: work, noColor: false)
        #expect(coloured.contains("\u{1B}[33mcontact \(identifier)\u{1B}[0m"))
        let plain = try runInTerminal(["show", identifier], in: work, noColor: true)
        #expect(plain.contains("contact \(identifier)"))
        #expect(!plain.contains("\u{1B}"))
    }
}
