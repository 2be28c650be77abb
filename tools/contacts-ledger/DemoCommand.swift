import ContactsLedger
import Foundation
import LedgerAudit

/// `demo`: the main job, end to end, on the ledger path, for a newcomer.
struct DemoCommand: ToolCommand {
    static let name = "demo"
    static let summary = "Shows the main job end to end on the ledger: add, import, change, audit, verify, restore."
    static let usage = "demo"
    static let help = """
        Runs the main job on the ledger (created if it is not there), printing each step: adds sample
        contacts and imports two from a vCard, updates one and deletes another, searches, prints the
        audit log of this run and one contact's history, verifies the ledger, restores it as it was
        before the delete into a second ledger beside it (DIR.restored-at-N), and shows the difference.
        It adds new contacts each time, so it can be run again; each run restores into a new directory.
        Every step is a library call that a Swift program can make too.
        """

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
    }

    /// Two cards as an address book program exports them.
    static let sampleVCard = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        N:Hamilton;Margaret;;;\r
        FN:Margaret Hamilton\r
        ORG:MIT Instrumentation Laboratory\r
        TEL;TYPE=WORK,VOICE:+1 617 555 0142\r
        EMAIL;TYPE=INTERNET,WORK:margaret@example.edu\r
        BDAY:1936-08-17\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:3.0\r
        N:Babbage;Charles;;;\r
        FN:Charles Babbage\r
        TEL;TYPE=HOME:+44 20 7946 0001\r
        NOTE:Imported from a vCard.\r
        END:VCARD\r

        """

    func run(_ context: CommandContext) throws {
        let author = "demo"
        var first = true
        func step(_ title: String) {
            Terminal.line((first ? "" : "\n") + Terminal.highlight("== " + title))
            first = false
        }

        step("The ledger at \(context.ledger)")
        let existed = FileManager.default.fileExists(atPath: LedgerPaths(root: context.ledger).identity)
        let store = try ContactStore(
            ledgerAt: context.ledger, client: context.client, create: true, lockWaitSeconds: context.waitSeconds)
        let start = store.headDigest.sequence
        Terminal.line(existed ? "opened; head \(start) (this run adds after it)" : "created an empty ledger")

        step("Adding three contacts in one save request (author \"\(author)\")")
        func person(_ given: String, _ family: String, phone: String, email: String, job: String) -> MutableContact {
            var contact = MutableContact()
            contact.givenName = given
            contact.familyName = family
            contact.jobTitle = job
            contact.phoneNumbers = [
                LabeledValue(label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: phone))
            ]
            contact.emailAddresses = [LabeledValue(label: Label.work, value: email)]
            return contact
        }
        let ada = person("Ada", "Lovelace", phone: "+44 20 7946 0958", email: "ada@example.org", job: "Analyst")
        let grace = person("Grace", "Hopper", phone: "+1 202 555 0100", email: "grace@example.com", job: "Captain")
        let alan = person("Alan", "Turing", phone: "+44 161 496 0000", email: "alan@example.org", job: "Codebreaker")
        var request = SaveRequest(transactionAuthor: author)
        for contact in [ada, grace, alan] { request.add(contact, toContainerWithIdentifier: nil) }
        var result = try store.execute(request)
        Terminal.lines([ada, grace, alan].map { "added \($0.identifier)  \($0.givenName) \($0.familyName)" })
        Terminal.line("head \(result.sequence)")

        step("Importing two contacts from a vCard")
        let imported = try VCardSerialization.contacts(with: Data(Self.sampleVCard.utf8))
        request = SaveRequest(transactionAuthor: "demo-import")
        for contact in imported { request.add(contact, toContainerWithIdentifier: nil) }
        result = try store.execute(request)
        Terminal.lines(imported.map { "added \($0.identifier)  \($0.givenName) \($0.familyName)" })
        Terminal.line("head \(result.sequence)")

        step("Promoting Grace Hopper, then deleting Charles Babbage")
        var promoted = try store.unifiedContact(withIdentifier: grace.identifier, keysToFetch: [ContactKeySet.all])
            .mutableCopy()
        promoted.jobTitle = "Rear Admiral"
        request = SaveRequest(transactionAuthor: author)
        request.update(promoted)
        result = try store.execute(request)
        Terminal.line("updated \(grace.identifier)  (head \(result.sequence))")
        let beforeDelete = result.sequence
        let babbage = imported.first { $0.familyName == "Babbage" } ?? imported[imported.count - 1]
        request = SaveRequest(transactionAuthor: author)
        request.delete(try store.unifiedContact(withIdentifier: babbage.identifier, keysToFetch: []).mutableCopy())
        result = try store.execute(request)
        Terminal.line("deleted \(babbage.identifier)  (head \(result.sequence))")
        let head = result.sequence

        step("Searching")
        for (label, predicate) in [
            ("name \"grace hop\"", ContactPredicate.matchingName("grace hop")),
            ("phone \"(202) 555-0100\"", .matching(PhoneNumber(stringValue: "(202) 555-0100"))),
            ("email \"MARGARET@example.edu\"", .matchingEmailAddress("MARGARET@example.edu")),
        ] {
            let found = try store.unifiedContacts(matching: predicate, keysToFetch: ContactText.summaryKeys)
            Terminal.line(
                "by \(label): "
                    + (found.isEmpty
                        ? "none" : "\(found.count), including \(found.map(ContactText.displayName).first!)"))
        }
        store.close()

        let auditor = try LedgerAuditor(ledgerAt: context.ledger)
        step("The audit log of this run (log --from \(start + 1))")
        let entries = try auditor.entries(matching: AuditFilter(fromSequence: start + 1))
        Terminal.lines(
            entries.enumerated().flatMap { index, entry in (index > 0 ? [""] : []) + AuditText.lines(entry) })

        step("Grace Hopper's history (history \(grace.identifier))")
        Terminal.lines(try auditor.revisions(ofContact: grace.identifier).flatMap(AuditText.lines))

        step("Verifying checksums, chain and replay (verify)")
        let verified = try auditor.verify()
        Terminal.line(
            "\(Terminal.good("ok")): \(verified.records) records, \(verified.contacts) contacts, head "
                + "\(verified.head.sequence) \(verified.head.hash.hex)")

        var destination = LedgerPaths(root: context.ledger).root + ".restored-at-\(beforeDelete)"
        var attempt = 1
        while FileManager.default.fileExists(atPath: destination) {
            attempt += 1
            destination = LedgerPaths(root: context.ledger).root + ".restored-at-\(beforeDelete)-\(attempt)"
        }
        step(
            "Restoring to sequence \(beforeDelete), before the delete (restore --to \(destination) --sequence \(beforeDelete))"
        )
        let restored = try auditor.restore(to: destination, at: .sequence(beforeDelete))
        let sourceHash = try auditor.reader.hash(at: beforeDelete)
        Terminal.lines([
            "restored through sequence \(restored.sequence) into \(destination)",
            "head \(restored.digest.sequence) \(restored.digest.hash.hex)"
                + (restored.digest.hash == sourceHash ? " (equal to the source's digest at \(beforeDelete))" : ""),
        ])

        step("What changed from the restored point to now (diff --from \(beforeDelete) --to \(head))")
        Terminal.lines(AuditText.lines(try auditor.diff(from: .sequence(beforeDelete), to: .sequence(head))))

        step("Next")
        Terminal.lines([
            "contacts-ledger --ledger \(context.ledger) list",
            "contacts-ledger --ledger \(context.ledger) log --json",
            "contacts-ledger --ledger \(destination) show \(babbage.identifier)",
        ])
    }
}
