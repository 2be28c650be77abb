import Foundation

/// Building the search indexes from the contacts in one pass, rather than keeping them up to date
/// event by event (decision 0009).
extension Projection {
    /// A contact whose encoded values the index build could not read.
    struct IndexBuildFailure: Error, CustomStringConvertible {
        /// The contact's slot.
        var slot: ContactSlot
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

    /// Replaces the indexes with ones built from the contacts, in slot order, on two threads,
    /// each reading the fields it needs from the encoded contacts without decoding them
    /// (``ContactCodec/forEachIndexedField(in:_:)``). A thread of its own builds the name index
    /// (``SearchIndexes/NameBuild``, which sorts (word, slot) pairs rather than inserting into a
    /// set per word) and reads the phone numbers' keys in the same walk; the caller's thread
    /// builds the email index, then inserts the phone keys handed to it in batches. With a name
    /// field folded once however many contacts share it, this keeps both threads about equally
    /// busy. Then the indexes are maintained again as contacts change. `phoneContactsHandedOn`
    /// is how many contacts' phone keys are handed on at a time.
    mutating func buildIndexes(phoneContactsHandedOn: Int = 8192) throws(IndexBuildFailure) {
        let contacts = self.contacts
        let country = indexes.defaultCountryCode
        let phoneKeys = Handoff<SearchIndexes.KeyQueue>(capacity: .max)
        let names = BackgroundWork(named: "index build") {
            let built = Self.index(
                contacts,
                into: (
                    names: SearchIndexes.NameBuild(slotBound: contacts.slotCount),
                    phones: SearchIndexes.KeyQueue(defaultCountryCode: country)
                )
            ) { (build, slot, encoded) throws(EventDecodingError) in
                try ContactCodec.forEachIndexedField(in: encoded) { field, utf8 in
                    switch field {
                    case .name: build.names.addNameField(utf8)
                    case .phone: build.phones.read(slot, field: field, utf8: utf8)
                    case .email: break
                    }
                }
                build.names.endContact(slot)
                build.phones.endContact()
                if build.phones.contacts >= phoneContactsHandedOn {
                    phoneKeys.put(build.phones)
                    build.phones = SearchIndexes.KeyQueue(defaultCountryCode: country)
                }
            }
            if case .success(let build) = built { phoneKeys.put(build.phones) }
            phoneKeys.close()
            return built.map { $0.names.finish() }
        }
        var emailsAndPhones = Self.index(
            contacts, into: SearchIndexes.AddressBuild(into: SearchIndexes(defaultCountryCode: country))
        ) { (build, slot, encoded) throws(EventDecodingError) in
            try ContactCodec.forEachIndexedField(in: encoded) { field, utf8 in
                if field == .email { build.add(slot, field: field, utf8: utf8) }
            }
            build.endContact()
        }
        if case .success(var build) = emailsAndPhones {
            while let keys = phoneKeys.take() { build.insert(keys) }
            emailsAndPhones = .success(build)
        }
        let namesResult = names.wait()
        var built = try emailsAndPhones.get().finish()
        built.adoptNames(try namesResult.get())
        built.prepareForQueries()
        indexes = built
        indexesDeferred = false
    }

    /// Feeds every contact of `contacts`, in slot order, to `insert` with `built`; fails at the
    /// first contact whose bytes it cannot read.
    private static func index<Built>(
        _ contacts: ContactTable, into built: consuming Built,
        _ insert: (inout Built, ContactSlot, UnsafeBufferPointer<UInt8>) throws(EventDecodingError) -> Void
    ) -> Result<Built, IndexBuildFailure> {
        var built = built
        let failure = contacts.forEachContact { slot, encoded -> IndexBuildFailure? in
            do throws(EventDecodingError) {
                try insert(&built, slot, encoded)
                return nil
            } catch {
                return IndexBuildFailure(slot: slot, error: error)
            }
        }
        if let failure { return .failure(failure) }
        return .success(built)
    }
}
