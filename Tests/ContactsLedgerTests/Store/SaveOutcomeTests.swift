import Foundation
import LedgerStorageTesting
import Testing

@testable import ContactsEngine
@testable import ContactsInterchange
@testable import ContactsLedger
@testable import ContactsModel
@testable import LedgerStorage

/// What a save reports when the disk fills up or fails, and how a retry with the same request id
/// settles an unknown outcome exactly once, in this process and in a new one (decision 0021).
@Suite("Save outcomes: saved, not saved, unknown, and retries")
struct SaveOutcomeTests {
    /// Contacts whose names match `name`.
    static func named(_ name: String, in store: ContactStore) throws -> [Contact] {
        try store.unifiedContacts(matching: .matchingName(name), keysToFetch: listKeys)
    }

    /// A request adding one contact named `given` Outcome.
    static func addRequest(_ given: String, id: UUID = UUID()) -> SaveRequest {
        var request = SaveRequest(requestIdentifier: id)
        request.add(makeContact(given: given, family: "Outcome"), toContainerWithIdentifier: nil)
        return request
    }

    @Test(
        "A save whose fdatasync fails is of unknown outcome; retried with its request id after reopening, it is saved exactly once",
        arguments: [false, true])
    func unknownOutcomeThenRetry(asNewProcess: Bool) throws {
        let directory = StoreDirectory()
        let faults = FaultInjectingFileSystem()
        let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess(), fileSystem: faults)
        try store.execute(Self.addRequest("Before"))
        faults.inject(.init(.synchronizeData, pathContains: "journal/", effect: .fail(errno: EIO)))
        let request = Self.addRequest("Uncertain")
        #expect {
            try store.execute(request)
        } throws: { error in
            guard case .outcomeUnknown? = (error as? ContactStoreError)?.storageError else { return false }
            return true
        }
        store.close()

        // A new process does not know the writer failed: it finds the record the page cache
        // still holds. This process cuts the journal back to what was durable.
        if asNewProcess { Journal.forgetFailedWriter(at: directory.ledger) }
        let reopened = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess())
        defer { reopened.close() }
        let earlier = try reopened.result(ofRequest: request.requestIdentifier)
        #expect((earlier != nil) == asNewProcess)
        let retried = try reopened.execute(request)
        #expect(retried.wasAlreadyCommitted == asNewProcess)
        #expect(try reopened.execute(request).wasAlreadyCommitted, "a second retry finds the first")
        #expect(try Self.named("Uncertain", in: reopened).count == 1)
        #expect(reopened.headDigest.sequence == 2)
    }

    @Test(
        "Zeros that cannot be written behind a durable record: the save succeeds; the next one is refused as not saved")
    func zerosFailAfterDurableSave() throws {
        let directory = StoreDirectory()
        let faults = FaultInjectingFileSystem()
        let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess(), fileSystem: faults)
        try store.execute(Self.addRequest("First"))
        store.close()
        // A store opens with 64 KiB of zeros ahead; a note of 40 KB uses more than half of them,
        // so the save renews them behind its frames: that write fails.
        let writing = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess(), fileSystem: faults)
        faults.inject(.init(.write, pathContains: "journal/", skip: 1, effect: .fail(errno: ENOSPC)))
        var large = makeContact(given: "Large", family: "Outcome")
        large.note = String(repeating: "n", count: 40_000)
        var request = SaveRequest()
        request.add(large, toContainerWithIdentifier: nil)
        let result = try writing.execute(request)
        #expect(result.sequence == 2 && !result.wasAlreadyCommitted)
        #expect { try writing.execute(Self.addRequest("Refused")) } throws: { error in
            guard case .writerFailed? = (error as? ContactStoreError)?.storageError else { return false }
            return true
        }
        writing.close()

        Journal.forgetFailedWriter(at: directory.ledger)
        let reopened = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess())
        defer { reopened.close() }
        #expect(reopened.headDigest.sequence == 2)
        #expect(try reopened.result(ofRequest: request.requestIdentifier)?.sequence == 2)
        #expect(try Self.named("Large", in: reopened).count == 1)
        #expect(try Self.named("Refused", in: reopened).isEmpty)
    }

    /// `count` minimal vCards named Card0, Card1, ….
    static func cards(_ count: Int) -> Data {
        Data(
            (0..<count).map { "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Import;Card\($0);;;\r\nFN:Card\($0)\r\nEND:VCARD\r\n" }
                .joined().utf8)
    }

    @Test(
        "An import whose second batch has an unknown outcome names what it saved; run again with its id, each card is saved once",
        arguments: [false, true])
    func interruptedImportResumes(asNewProcess: Bool) throws {
        let directory = StoreDirectory()
        let faults = FaultInjectingFileSystem()
        let data = Self.cards(1_200)
        let base = UUID()
        let store = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess(), fileSystem: faults)
        var landed: [VCardImportBatch] = []
        do {
            // Once the first batch is durable, the next group's fdatasync fails (its frames go
            // into the zeros the first one left ahead of them).
            _ = try store.importVCards(
                data, requestIdentifier: base,
                onBatch: { batch in
                    if landed.isEmpty {
                        faults.inject(.init(.synchronizeData, pathContains: "journal/", effect: .fail(errno: EIO)))
                    }
                    landed.append(batch)
                })
            Issue.record("the import did not report the failed batch")
        } catch let error as VCardImportInterrupted {
            #expect(error.summary.imported.map(\.cardIndex) == Array(0..<500))
            #expect(error.failedCardIndexes == Array(500..<1_000))
            #expect(
                error.failedRequestIdentifier
                    == ContactStore.importRequestIdentifier(base: base, cards: Array(500..<1_000)))
            guard case .outcomeUnknown? = error.error.storageError else {
                Issue.record("expected an unknown outcome, got \(error.error)")
                return
            }
        }
        #expect(landed.map(\.imported.count) == [500])
        #expect(
            landed.first?.requestIdentifier == ContactStore.importRequestIdentifier(base: base, cards: Array(0..<500)))
        store.close()

        if asNewProcess { Journal.forgetFailedWriter(at: directory.ledger) }
        let reopened = try ContactStore(ledgerAt: directory.ledger, client: .fullAccess())
        defer { reopened.close() }
        var resumed: [VCardImportBatch] = []
        let summary = try reopened.importVCards(data, requestIdentifier: base, onBatch: { resumed.append($0) })
        #expect(resumed.map(\.wasAlreadyCommitted) == [true, asNewProcess, false])
        #expect(summary.imported.count == 1_200)
        #expect(summary.imported.prefix(500).map(\.identifier) == landed.first?.imported.map(\.identifier))
        #expect(reopened.headDigest.sequence == 3)
        var names: [String] = []
        try reopened.enumerateContacts(with: ContactFetchRequest(keysToFetch: listKeys, sortOrder: .none)) {
            contact, _ in
            names.append(contact.givenName)
        }
        #expect(names.count == 1_200)
        #expect(Set(names).count == 1_200, "a card was saved twice")
    }

    @Test("A NUL character in any text of a contact or a group's name is refused, named by its key path")
    func nulIsRefused() throws {
        let store = ContactStore.inMemory()
        defer { store.close() }
        func refusal(_ change: (inout MutableContact) -> Void) -> [String]? {
            var contact = makeContact(given: "Nul", family: "Test")
            change(&contact)
            var request = SaveRequest()
            request.add(contact, toContainerWithIdentifier: nil)
            do {
                try store.execute(request)
                return nil
            } catch let error as ContactStoreError {
                return error.keyPaths
            } catch {
                return ["unexpected \(error)"]
            }
        }
        #expect(refusal { $0.note = "a\u{0}b" } == ["note"])
        #expect(refusal { $0.givenName = "\u{0}" } == ["givenName"])
        #expect(
            refusal { $0.phoneNumbers = [LabeledValue(label: "x\u{0}", value: PhoneNumber(stringValue: "1"))] } == [
                "phoneNumbers[0].label"
            ])
        #expect(
            refusal {
                $0.postalAddresses = [
                    LabeledValue(
                        label: nil,
                        value: PostalAddress(
                            street: "1 Road", subLocality: "", city: "Ci\u{0}ty", subAdministrativeArea: "", state: "",
                            postalCode: "", country: "", isoCountryCode: ""))
                ]
            } == ["postalAddresses[0].value.city"])
        #expect(try Self.named("Nul", in: store).isEmpty)

        var group = SaveRequest()
        group.add(MutableGroup(name: "Club\u{0}"), toContainerWithIdentifier: nil)
        #expect { try store.execute(group) } throws: { ($0 as? ContactStoreError)?.keyPaths == ["name"] }
        #expect(try store.groups().isEmpty)
    }

    @Test("A new contact's or group's identifier must be a UUID; contacts already saved keep theirs")
    func identifiersMustBeUUIDs() throws {
        let store = ContactStore.inMemory()
        defer { store.close() }
        var request = SaveRequest()
        request.add(
            MutableContact(identifier: "not-a-uuid", values: ContactValues(), availableKeys: .all, base: nil),
            toContainerWithIdentifier: nil)
        #expect { try store.execute(request) } throws: { error in
            let error = error as? ContactStoreError
            return error?.code == .recordIdentifierInvalid && error?.keyPaths == ["identifier"]
        }
        var group = SaveRequest()
        group.add(MutableGroup(identifier: "club", name: "Club"), toContainerWithIdentifier: nil)
        #expect { try store.execute(group) } throws: {
            ($0 as? ContactStoreError)?.code == .recordIdentifierInvalid
        }
        let lowercase = UUID().uuidString.lowercased()
        var accepted = SaveRequest()
        accepted.add(
            MutableContact(identifier: lowercase, values: ContactValues(), availableKeys: .all, base: nil),
            toContainerWithIdentifier: nil)
        #expect(try store.execute(accepted).affectedIdentifiers == [lowercase])
    }
}
