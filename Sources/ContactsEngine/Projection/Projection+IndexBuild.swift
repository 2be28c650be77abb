import ContactsModel
import Foundation
import LedgerStorage

/// Building the search indexes from the contacts in one pass, rather than keeping them up to date
/// event by event (decision 0009).
extension Projection {
    /// A contact whose encoded values the index build could not read.
    struct IndexBuildFailure: Error, CustomStringConvertible {
        /// The contact's slot.
        package var slot: ContactSlot
        /// What was wrong with its bytes.
        var error: EventDecodingError

        var description: String { "the contact in slot \(slot) cannot be read for the indexes: \(error)" }
    }

    /// Stops maintaining the indexes as contacts change, and empties them; ``buildIndexes()``
    /// builds them again from the contacts. A replay that starts from no contacts does this: a
    /// contact then costs the indexes once, whatever number of updates it went through, and the
    /// build runs on two threads.
    mutating func deferIndexes() {
        indexesDeferred = true
        indexes = SearchIndexes(defaultCountryCode: indexes.defaultCountryCode)
    }

    /// Whether the indexes were left unbuilt, for ``buildDeferredIndexes()`` when a read wants
    /// them (``ProjectionReplay/finish(buildingIndexes:)`` with `false`, or a restore from a
    /// snapshot); meanwhile a search scans the contacts (``slots(matchingName:from:)``).
    package var hasDeferredIndexes: Bool { indexesDeferred }

    /// Builds the indexes a replay left deferred, and maintains them from then on. Every contact
    /// was checked when it was added or merged, so one that cannot be read for the indexes is a
    /// broken arena, not bad input.
    package mutating func buildDeferredIndexes() {
        guard indexesDeferred else { return }
        do throws(IndexBuildFailure) {
            try buildIndexes()
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// Replaces the indexes with ones built from the contacts, in slot order, on two threads.
    /// A thread of its own walks the contacts once, reading the fields the indexes need from the
    /// encoded messages without decoding them (``ContactCodec/forEachIndexedField(in:_:)``): it
    /// builds the name index (``SearchIndexes/NameBuild``, which sorts (word, slot) pairs rather
    /// than inserting into a set per word, and folds a name field once however many contacts
    /// share it), and hands where the email addresses and phone numbers lie in the contact arena,
    /// in batches of `contactsHandedOn` contacts (``SearchIndexes/FieldQueue``), to the caller's
    /// thread, which reads, folds, keys and inserts them (``SearchIndexes/AddressBuild``) and hands the batches
    /// back to be filled again. Once the walk is done, the name thread offers the word starts'
    /// pairs too (``NameIndex/Builder/takeStartPairs()``): whichever thread is done with its own
    /// part first sorts them into postings (the other thread is then still sorting the words' or
    /// inserting addresses). Each thread prepares its part for queries
    /// (``SearchIndexes/prepareForQueries()``) before the two are joined; then the indexes are
    /// maintained again as contacts change.
    ///
    /// One thread walks the contacts for both, rather than each walking them for its own fields,
    /// because much of a walk is spent waiting for each contact's first byte to come from memory;
    /// the folding and keying of the addresses and numbers keep the caller's thread about as busy
    /// as the walk and the names keep the other.
    mutating func buildIndexes(contactsHandedOn: Int = 8192) throws(IndexBuildFailure) {
        let contacts = self.contacts
        let addresses = Handoff<SearchIndexes.FieldQueue>(capacity: .max)
        let emptied = Handoff<SearchIndexes.FieldQueue>(capacity: .max)
        let starts = Handoff<NameIndex.Builder.StartPairs>(capacity: 1)
        let names = BackgroundWork(named: "index build") { () -> Result<NameIndex, IndexBuildFailure> in
            Self.buildNames(
                contacts, handingOn: addresses, emptied: emptied, starts: starts, contactsHandedOn: contactsHandedOn)
        }
        var built = Self.buildAddresses(
            contacts, from: addresses, emptied: emptied,
            into: SearchIndexes(defaultCountryCode: indexes.defaultCountryCode))
        // While the name thread may still be at work.
        built.prepareAddressesForQueries()
        // Unless the name thread, done first, took them back.
        let startPostings = starts.poll()?.postings()
        var nameIndex = try names.wait().get()
        if let startPostings { nameIndex.adoptStartPostings(startPostings) }
        built.adoptNames(nameIndex)
        indexes = built
        indexesDeferred = false
    }

    /// The name thread's part of ``buildIndexes(contactsHandedOn:)``: walks the contacts
    /// (``walk(_:handingOn:emptied:contactsHandedOn:)``), then offers the word starts' pairs,
    /// hands on the last addresses and makes the name index, ready for queries.
    private static func buildNames(
        _ contacts: ContactTable, handingOn addresses: Handoff<SearchIndexes.FieldQueue>,
        emptied: Handoff<SearchIndexes.FieldQueue>, starts: Handoff<NameIndex.Builder.StartPairs>,
        contactsHandedOn: Int
    ) -> Result<NameIndex, IndexBuildFailure> {
        let build: (names: SearchIndexes.NameBuild, addresses: SearchIndexes.FieldQueue)
        switch walk(contacts, handingOn: addresses, emptied: emptied, contactsHandedOn: contactsHandedOn) {
        case .success(let walkedBuild): build = walkedBuild
        case .failure(let failure):
            addresses.close()
            return .failure(failure)
        }
        var nameBuild = build.names
        // Offered before the addresses' queue is closed, so that the caller's thread finds
        // them once it has taken the last addresses.
        starts.put(nameBuild.takeStartPairs())
        addresses.put(build.addresses)
        addresses.close()
        var names = nameBuild.finish()
        names.prepareForQueries()
        // Not taken: the caller's thread is still at the addresses.
        if let pairs = starts.poll() { names.adoptStartPostings(pairs.postings()) }
        return .success(names)
    }

    /// Walks the contacts in slot order, adding their names to a name build and queueing where
    /// their email addresses and phone numbers lie in the arena; every `contactsHandedOn`
    /// contacts, hands the queue on to `addresses` and goes on with one handed back (`emptied`).
    /// Returns the name build and the last, partly filled queue.
    private static func walk(
        _ contacts: ContactTable, handingOn addresses: Handoff<SearchIndexes.FieldQueue>,
        emptied: Handoff<SearchIndexes.FieldQueue>, contactsHandedOn: Int
    ) -> Result<(names: SearchIndexes.NameBuild, addresses: SearchIndexes.FieldQueue), IndexBuildFailure> {
        index(
            contacts,
            into: (names: SearchIndexes.NameBuild(slotBound: contacts.slotCount), addresses: SearchIndexes.FieldQueue())
        ) { (build, slot, encoded, arenaOffset) throws(EventDecodingError) in
            try ContactCodec.forEachIndexedField(in: encoded) { field, utf8 in
                if field == .name {
                    build.names.addNameField(utf8)
                } else {
                    // Where the bytes lie in the arena, which the caller's thread reads them
                    // from: `utf8` is a part of `encoded` (forEachIndexedField's promise).
                    let start = arenaOffset + (utf8.baseAddress! - encoded.baseAddress!)
                    assert(
                        utf8.baseAddress! >= encoded.baseAddress!
                            && utf8.baseAddress! + utf8.count <= encoded.baseAddress! + encoded.count,
                        "an indexed field outside its contact's bytes")
                    build.addresses.read(slot, field: field, arenaBytes: start..<start + utf8.count)
                }
            }
            build.names.endContact(slot)
            build.addresses.endContact()
            if build.addresses.contacts >= contactsHandedOn {
                // A batch handed back keeps its storage, already in memory.
                var next = emptied.poll() ?? SearchIndexes.FieldQueue()
                next.removeAll()
                swap(&next, &build.addresses)
                addresses.put(next)
            }
        }
    }

    /// The caller's thread's part of ``buildIndexes(contactsHandedOn:)``: reads, folds, keys and
    /// inserts into `indexes` the fields of each batch the name thread hands on, handing the batch
    /// back to be filled again, until the name thread closes `addresses`.
    private static func buildAddresses(
        _ contacts: ContactTable, from addresses: Handoff<SearchIndexes.FieldQueue>,
        emptied: Handoff<SearchIndexes.FieldQueue>, into indexes: SearchIndexes
    ) -> SearchIndexes {
        var build = SearchIndexes.AddressBuild(into: indexes)
        var sampled = false
        contacts.withArena { arena in
            while let batch = addresses.take() {
                if !sampled {
                    sampled = true
                    build.reserve(forContacts: contacts.count, like: batch)
                }
                build.add(batch, arena: arena)
                emptied.put(batch)
            }
        }
        return build.finish()
    }

    /// Feeds every contact of `contacts`, in slot order, to `insert` with `built`; fails at the
    /// first contact whose bytes it cannot read.
    private static func index<Built>(
        _ contacts: ContactTable, into built: consuming Built,
        _ insert: (inout Built, ContactSlot, UnsafeBufferPointer<UInt8>, _ arenaOffset: Int) throws(EventDecodingError)
            -> Void
    ) -> Result<Built, IndexBuildFailure> {
        var built = built
        let failure = contacts.forEachContact { slot, encoded, arenaOffset -> IndexBuildFailure? in
            do throws(EventDecodingError) {
                try insert(&built, slot, encoded, arenaOffset)
                return nil
            } catch {
                return IndexBuildFailure(slot: slot, error: error)
            }
        }
        if let failure { return .failure(failure) }
        return .success(built)
    }
}
