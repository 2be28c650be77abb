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
        Run again, it finds its sample contacts by name and brings them back to their sample values
        instead of adding them twice (only Charles Babbage, deleted by each run, is imported again); each
        run restores into a new directory. Every step is a library call that a Swift program can make
        too. The `Next` commands it prints work once the tool is on the PATH (see `make install`).
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
        var steps = Steps()
        steps.begin("The ledger at \(context.ledger)")
        let (store, start) = try Self.openLedger(context)

        steps.begin("Adding three contacts in one save request (author \"\(Self.author)\")")
        let grace = try Self.addThree(to: store)

        steps.begin("Importing two contacts from a vCard")
        let imported = try Self.importSample(into: store)

        steps.begin("Promoting Grace Hopper, then deleting Charles Babbage")
        let (beforeDelete, head, babbage) = try Self.promoteAndDelete(grace, babbageFrom: imported, in: store)

        steps.begin("Searching")
        try Self.search(store)
        store.close()

        let auditor = try LedgerAuditor(ledgerAt: context.ledger)
        try Self.audit(auditor, from: start + 1, history: grace, steps: &steps)

        let destination = Self.restoreDestination(context, at: beforeDelete)
        steps.begin(
            "Restoring to sequence \(beforeDelete), before the delete (restore --to \(destination) --sequence \(beforeDelete))"
        )
        try Self.restore(auditor, at: beforeDelete, to: destination)

        steps.begin("What changed from the restored point to now (diff --from \(beforeDelete) --to \(head))")
        Terminal.lines(AuditText.lines(try auditor.diff(from: .sequence(beforeDelete), to: .sequence(head))))

        steps.begin("Next")
        Terminal.lines([
            "contacts-ledger --ledger \(context.ledger) list",
            "contacts-ledger --ledger \(context.ledger) log --json",
            "contacts-ledger --ledger \(destination) show \(babbage)",
        ])
    }

    /// The transaction author of the demo's own changes.
    private static let author = "demo"

    /// Prints the demo's step titles, a blank line between steps.
    private struct Steps {
        private var first = true

        mutating func begin(_ title: String) {
            Terminal.line((first ? "" : "\n") + Terminal.highlight("== " + title))
            first = false
        }
    }

    /// Opens the ledger, creating it if it is not there; returns the store and the head before
    /// this run.
    private static func openLedger(_ context: CommandContext) throws -> (store: ContactStore, start: UInt64) {
        let existed = FileManager.default.fileExists(atPath: LedgerPaths(root: context.ledger).identity)
        let store = try ContactStore(
            ledgerAt: context.ledger, client: context.client, create: true, lockWaitSeconds: context.waitSeconds)
        let start = store.headDigest.sequence
        Terminal.line(existed ? "opened; head \(start) (this run adds after it)" : "created an empty ledger")
        return (store, start)
    }

    /// Adds three contacts in one save request, or brings those already in the ledger (by name)
    /// back to their sample values; returns the identifier of the second, Grace Hopper.
    private static func addThree(to store: ContactStore) throws -> String {
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
        var identifiers: [String] = []
        for sample in [ada, grace, alan] {
            identifiers.append(try addOrReset(sample, in: store, to: &request))
        }
        if !request.isEmpty { Terminal.line("head \(try store.execute(request).sequence)") }
        return identifiers[1]
    }

    /// Adds `sample` to the request, or, when a contact of its name is in the ledger already, an
    /// update that brings that one's job title, phone numbers and email addresses back to the
    /// sample's (nothing if they are the sample's); returns the contact's identifier.
    private static func addOrReset(
        _ sample: MutableContact, in store: ContactStore, to request: inout SaveRequest
    ) throws -> String {
        let name = "\(sample.givenName) \(sample.familyName)"
        guard var existing = try existingContact(named: sample, in: store) else {
            request.add(sample, toContainerWithIdentifier: nil)
            Terminal.line("added \(sample.identifier)  \(name)")
            return sample.identifier
        }
        let phones = { (contact: MutableContact) in contact.phoneNumbers.map { [$0.label, $0.value.stringValue] } }
        let emails = { (contact: MutableContact) in contact.emailAddresses.map { [$0.label, $0.value] } }
        if existing.jobTitle != sample.jobTitle || phones(existing) != phones(sample)
            || emails(existing) != emails(sample)
        {
            existing.jobTitle = sample.jobTitle
            existing.phoneNumbers = sample.phoneNumbers
            existing.emailAddresses = sample.emailAddresses
            request.update(existing)
            Terminal.line("reset \(existing.identifier)  \(name)  (in the ledger already: back to the sample)")
        } else {
            Terminal.line("kept \(existing.identifier)  \(name)  (in the ledger already)")
        }
        return existing.identifier
    }

    /// The contact with the sample's given and family name, if the ledger has one.
    private static func existingContact(
        named sample: MutableContact, in store: ContactStore
    ) throws
        -> MutableContact?
    {
        let found = try store.unifiedContacts(
            matching: .matchingName("\(sample.givenName) \(sample.familyName)"), keysToFetch: [ContactKeySet.all])
        return found.first { $0.givenName == sample.givenName && $0.familyName == sample.familyName }?.mutableCopy()
    }

    /// Imports the cards of ``sampleVCard`` whose names the ledger does not have; returns each
    /// card's contact, as imported or as found.
    private static func importSample(into store: ContactStore) throws -> [MutableContact] {
        var request = SaveRequest(transactionAuthor: "demo-import")
        var contacts: [MutableContact] = []
        for card in try VCardSerialization.contacts(with: Data(sampleVCard.utf8)) {
            let name = "\(card.givenName) \(card.familyName)"
            if let existing = try existingContact(named: card, in: store) {
                Terminal.line("kept \(existing.identifier)  \(name)  (in the ledger already)")
                contacts.append(existing)
            } else {
                request.add(card, toContainerWithIdentifier: nil)
                Terminal.line("added \(card.identifier)  \(name)")
                contacts.append(card)
            }
        }
        if !request.isEmpty { Terminal.line("head \(try store.execute(request).sequence)") }
        return contacts
    }

    /// Changes Grace Hopper's job title, then deletes the imported Charles Babbage; returns the
    /// head between the two, the head after them and Babbage's identifier.
    private static func promoteAndDelete(
        _ grace: String, babbageFrom imported: [MutableContact], in store: ContactStore
    ) throws -> (beforeDelete: UInt64, head: UInt64, babbage: String) {
        var promoted = try store.unifiedContact(withIdentifier: grace, keysToFetch: [ContactKeySet.all])
            .mutableCopy()
        promoted.jobTitle = "Rear Admiral"
        var request = SaveRequest(transactionAuthor: author)
        request.update(promoted)
        var result = try store.execute(request)
        Terminal.line("updated \(grace)  (head \(result.sequence))")
        let beforeDelete = result.sequence
        let babbage = imported.first { $0.familyName == "Babbage" } ?? imported[imported.count - 1]
        request = SaveRequest(transactionAuthor: author)
        request.delete(try store.unifiedContact(withIdentifier: babbage.identifier, keysToFetch: []).mutableCopy())
        result = try store.execute(request)
        Terminal.line("deleted \(babbage.identifier)  (head \(result.sequence))")
        return (beforeDelete, result.sequence, babbage.identifier)
    }

    /// Searches by name, phone number and email address, printing what each finds.
    private static func search(_ store: ContactStore) throws {
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
    }

    /// Prints the audit log from `sequence` on and one contact's history, then verifies the ledger.
    private static func audit(
        _ auditor: LedgerAuditor, from sequence: UInt64, history contact: String, steps: inout Steps
    ) throws {
        steps.begin("The audit log of this run (log --from \(sequence))")
        let entries = try auditor.entries(matching: AuditFilter(fromSequence: sequence))
        Terminal.lines(
            entries.enumerated().flatMap { index, entry in (index > 0 ? [""] : []) + AuditText.lines(entry) })

        steps.begin("Grace Hopper's history (history \(contact))")
        Terminal.lines(try auditor.revisions(ofContact: contact).flatMap(AuditText.lines))

        steps.begin("Verifying checksums, chain and replay (verify)")
        let verified = try auditor.verify()
        Terminal.line(
            "\(Terminal.good("ok")): \(verified.records) records, \(verified.contacts) contacts, head "
                + "\(verified.head.sequence) \(verified.head.hash.hex)")
    }

    /// A directory beside the ledger, not there yet, to restore it into as at `sequence`.
    private static func restoreDestination(_ context: CommandContext, at sequence: UInt64) -> String {
        var destination = LedgerPaths(root: context.ledger).root + ".restored-at-\(sequence)"
        var attempt = 1
        while FileManager.default.fileExists(atPath: destination) {
            attempt += 1
            destination = LedgerPaths(root: context.ledger).root + ".restored-at-\(sequence)-\(attempt)"
        }
        return destination
    }

    /// Restores the ledger as at `sequence` into `destination`, and compares the restored head
    /// with the source's digest there.
    private static func restore(_ auditor: LedgerAuditor, at sequence: UInt64, to destination: String) throws {
        let restored = try auditor.restore(to: destination, at: .sequence(sequence))
        let sourceHash = try auditor.reader.hash(at: sequence)
        Terminal.lines([
            "restored through sequence \(restored.sequence) into \(destination)",
            "head \(restored.digest.sequence) \(restored.digest.hash.hex)"
                + (restored.digest.hash == sourceHash ? " (equal to the source's digest at \(sequence))" : ""),
        ])
    }
}
