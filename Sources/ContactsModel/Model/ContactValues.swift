import Foundation
import LedgerStorage

/// Every stored property of a contact, without the fetch bookkeeping.
///
/// ``Contact`` and ``MutableContact`` wrap this with the identifier and the set of available
/// keys, and guard every read and write by that set. A store reads and writes it directly:
/// it builds one from its projection, and applies a save by copying the changed keys.
///
/// The values of keys that were not fetched are the defaults (empty strings and arrays, nil,
/// `.person`): ``keeping(_:)`` clears them, so that a partial contact never carries data its
/// holder was not given (a note without the notes entitlement, say). The two image-derived
/// keys have no storage of their own; ``Stored/imageData`` is kept whenever any of the three image
/// keys is, and the derived values are computed from it.
@dynamicMemberLookup
package struct ContactValues: Sendable, Hashable {
    /// The values themselves, read and written as properties of `ContactValues`
    /// (`values.givenName`) through dynamic member lookup. `ContactValues` keeps them behind one
    /// reference, so that a copy (a contact handed to a save request, planned, recorded and
    /// applied) retains one object instead of every string and array, and copies them only when
    /// a shared copy is changed.
    package struct Stored: Sendable, Hashable {
        package var contactType: ContactType = .person
        package var namePrefix = ""
        package var givenName = ""
        package var middleName = ""
        package var familyName = ""
        package var previousFamilyName = ""
        package var nameSuffix = ""
        package var nickname = ""
        package var phoneticGivenName = ""
        package var phoneticMiddleName = ""
        package var phoneticFamilyName = ""
        package var organizationName = ""
        package var phoneticOrganizationName = ""
        package var departmentName = ""
        package var jobTitle = ""
        package var note = ""
        package var birthday: DateComponents? {
            get { birthdayBox?.value }
            set { birthdayBox = newValue.map(DateBox.init) }
        }
        package var nonGregorianBirthday: DateComponents? {
            get { nonGregorianBirthdayBox?.value }
            set { nonGregorianBirthdayBox = newValue.map(DateBox.init) }
        }
        /// The two dates, each behind a reference (``DateBox``).
        @usableFromInline var birthdayBox: DateBox?
        @usableFromInline var nonGregorianBirthdayBox: DateBox?
        package var dates: [LabeledValue<DateComponents>] = []
        package var phoneNumbers: [LabeledValue<PhoneNumber>] = []
        package var emailAddresses: [LabeledValue<String>] = []
        package var postalAddresses: [LabeledValue<PostalAddress>] = []
        package var urlAddresses: [LabeledValue<String>] = []
        package var contactRelations: [LabeledValue<ContactRelation>] = []
        package var socialProfiles: [LabeledValue<SocialProfile>] = []
        package var instantMessageAddresses: [LabeledValue<InstantMessageAddress>] = []
        package var imageData: Data?
        package var vCardExtensions: [LabeledValue<String>] = []
    }

    /// A date kept behind a reference. `DateComponents` takes 283 bytes, so two dates inline made
    /// every set of values, most of which have neither, about three times the size: each
    /// contact a fetch decodes allocates and fills a set, and frees it when the caller is done.
    @usableFromInline final class DateBox: Sendable, Hashable {
        @usableFromInline let value: DateComponents

        @usableFromInline init(_ value: DateComponents) { self.value = value }

        @usableFromInline static func == (lhs: DateBox, rhs: DateBox) -> Bool { lhs.value == rhs.value }

        @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(value) }
    }

    /// The box `ContactValues` shares until one of its copies changes (copy-on-write).
    ///
    /// The box and the accessors are inlinable: the engine decodes and the store plans contacts
    /// field by field from other modules, and an accessor left as a call there reads a field
    /// through a runtime key path and a copy of every value.
    @usableFromInline final class Box: @unchecked Sendable {
        // Thread-safety: a box reachable from more than one value is never written; a value
        // copies it first (`makeUnique`).
        //
        // Unchecked: the box is reached only through a `ContactValues`, whose own accesses Swift
        // checks as it checks any value's (a read overlapping a write of the same value is
        // refused); the runtime's check of this property on every read and write of every value
        // would tax every fetch.
        @usableFromInline @exclusivity(unchecked) var stored: Stored

        @usableFromInline init(_ stored: Stored) { self.stored = stored }
    }

    /// The box of every empty set of values until one is changed.
    @usableFromInline static let emptyBox = Box(Stored())

    @usableFromInline var box: Box

    /// Gives this value a box of its own before a write.
    @inlinable mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.stored) }
    }

    /// The values of an empty contact in a box of their own, for a decoder about to fill them:
    /// its first write then neither copies the shared empty box (retaining every value of the
    /// kilobyte it holds) nor releases it, which every contact a fetch decodes did.
    package static func unshared() -> ContactValues {
        var values = ContactValues()
        values.box = Box(Stored())
        return values
    }

    /// Reads and writes a stored property (`values.givenName`, `values.phoneNumbers.append(…)`);
    /// a write first gives this value a box of its own.
    @inlinable package subscript<Value>(dynamicMember property: WritableKeyPath<Stored, Value>) -> Value {
        @inline(__always) get { box.stored[keyPath: property] }
        @inline(__always) _modify {
            makeUnique()
            yield &box.stored[keyPath: property]
        }
    }

    /// Whether two sets of values hold the same value for every key.
    @inlinable package static func == (lhs: ContactValues, rhs: ContactValues) -> Bool {
        lhs.box === rhs.box || lhs.box.stored == rhs.box.stored
    }

    /// Hashes every value.
    @inlinable package func hash(into hasher: inout Hasher) {
        box.stored.hash(into: &hasher)
    }

    /// Creates the values of an empty contact.
    @inlinable package init() { box = Self.emptyBox }

    /// The thumbnail: the image data itself when it is at most
    /// ``Contact/thumbnailImageDataBytesMax`` bytes, otherwise nil.
    package var thumbnailImageData: Data? {
        guard let imageData = self.imageData, imageData.count <= Contact.thumbnailImageDataBytesMax else {
            return nil
        }
        return imageData
    }

    /// Whether there is image data.
    package var imageDataAvailable: Bool {
        self.imageData != nil
    }

    /// Whether this and another set of values hold the same value for a key.
    ///
    /// The identifier is not part of the values, so it always compares equal.
    package func hasSameValue(as other: ContactValues, for key: ContactKey) -> Bool {
        switch ContactKeyTable.kind(of: key) {
        case .identifier: true
        case .contactType: self[contactType: key] == other[contactType: key]
        case .string: self[string: key] == other[string: key]
        case .date, .nonGregorianDate: self[date: key] == other[date: key]
        case .labeledDates: self[labeledDates: key] == other[labeledDates: key]
        case .labeledPhoneNumbers: self[phoneNumbers: key] == other[phoneNumbers: key]
        case .labeledStrings: self[labeledStrings: key] == other[labeledStrings: key]
        case .labeledPostalAddresses: self[postalAddresses: key] == other[postalAddresses: key]
        case .labeledRelations: self[contactRelations: key] == other[contactRelations: key]
        case .labeledSocialProfiles: self[socialProfiles: key] == other[socialProfiles: key]
        case .labeledInstantMessageAddresses:
            self[instantMessageAddresses: key] == other[instantMessageAddresses: key]
        case .imageData: self[data: key] == other[data: key]
        case .thumbnailImageData: self.thumbnailImageData == other.thumbnailImageData
        case .imageDataAvailable: self.imageDataAvailable == other.imageDataAvailable
        }
    }

    /// The keys, among the given ones, whose values differ from another set of values.
    package func keys(
        differingFrom other: ContactValues, among candidates: ContactKeySet = .all
    ) -> ContactKeySet {
        ContactKeySet(candidates.keys.filter { !hasSameValue(as: other, for: $0) })
    }

    /// Copies one key's value from another set of values; a derived image key copies the
    /// image data it comes from, and the identifier copies nothing.
    package mutating func copyValue(for key: ContactKey, from other: ContactValues) {
        switch ContactKeyTable.kind(of: key) {
        case .identifier: break
        case .contactType: self[contactType: key] = other[contactType: key]
        case .string: self[string: key] = other[string: key]
        case .date, .nonGregorianDate: self[date: key] = other[date: key]
        case .labeledDates: self[labeledDates: key] = other[labeledDates: key]
        case .labeledPhoneNumbers: self[phoneNumbers: key] = other[phoneNumbers: key]
        case .labeledStrings: self[labeledStrings: key] = other[labeledStrings: key]
        case .labeledPostalAddresses: self[postalAddresses: key] = other[postalAddresses: key]
        case .labeledRelations: self[contactRelations: key] = other[contactRelations: key]
        case .labeledSocialProfiles: self[socialProfiles: key] = other[socialProfiles: key]
        case .labeledInstantMessageAddresses: self[instantMessageAddresses: key] = other[instantMessageAddresses: key]
        case .imageData, .thumbnailImageData, .imageDataAvailable: self.imageData = other.imageData
        }
    }

    /// Copies the values of the given keys from another set of values, as a store does when
    /// it applies a save of a contact's changed keys.
    package mutating func update(_ keys: ContactKeySet, from other: ContactValues) {
        for key in keys.keys {
            copyValue(for: key, from: other)
        }
    }

    /// Returns these values with every key outside the given set reset to its default.
    package func keeping(_ keys: ContactKeySet) -> ContactValues {
        var kept = ContactValues()
        kept.update(keys, from: self)
        return kept
    }
}

// MARK: Values by key

// One accessor per value kind (``ContactValueKind``), keyed by the key, so that code that
// handles keys by their kind reads and writes any key of a kind without naming it. Each is a
// switch rather than a key path held in ``ContactKeyTable``: the codec reads and writes every
// field through them, and applying a key path that is not a literal costs a walk of its
// components per access.
//
// A `_modify` moves the value out of the storage, yields it and moves it back, so that it has one
// yield whatever the number of keys of its kind: the compiler inlines only such coroutines, and
// one left as a call allocates its frame when that outgrows the caller's buffer, once per field
// decoded. The `exchange` functions are package, so that a decoder in another module, where even
// an inlinable coroutine is called rather than inlined, moves a list out and back by calls that
// allocate nothing. A `set` swaps the new value in, which an assignment (a copy between two sets of
// values) does without moving the old value out and back. A key of another kind stops the
// program.

extension ContactValues {
    /// Stops the program: the key's value is not of the kind an accessor reads.
    @usableFromInline static func notOfKind(_ key: ContactKey, _ kind: String) -> Never {
        preconditionFailure("the value of \(key.rawValue) is not \(kind)")
    }

    /// The value of a ``ContactValueKind/contactType`` key.
    @inlinable package subscript(contactType key: ContactKey) -> ContactType {
        @inline(__always) get {
            switch key {
            case .contactType: box.stored.contactType
            default: Self.notOfKind(key, "a contact type")
            }
        }
        @inline(__always) set {
            var value = newValue
            exchange(contactType: key, &value)
        }
        @inline(__always) _modify {
            var value: ContactType = .person
            exchange(contactType: key, &value)
            defer { exchange(contactType: key, &value) }
            yield &value
        }
    }

    /// Swaps the key's value with `value`, giving these values a box of their own first.
    @inlinable @inline(__always)
    package mutating func exchange(contactType key: ContactKey, _ value: inout ContactType) {
        makeUnique()
        switch key {
        case .contactType: swap(&value, &box.stored.contactType)
        default: Self.notOfKind(key, "a contact type")
        }
    }

    /// The value of a ``ContactValueKind/string`` key.
    @inlinable package subscript(string key: ContactKey) -> String {
        @inline(__always) get {
            switch key {
            case .namePrefix: box.stored.namePrefix
            case .givenName: box.stored.givenName
            case .middleName: box.stored.middleName
            case .familyName: box.stored.familyName
            case .previousFamilyName: box.stored.previousFamilyName
            case .nameSuffix: box.stored.nameSuffix
            case .nickname: box.stored.nickname
            case .phoneticGivenName: box.stored.phoneticGivenName
            case .phoneticMiddleName: box.stored.phoneticMiddleName
            case .phoneticFamilyName: box.stored.phoneticFamilyName
            case .organizationName: box.stored.organizationName
            case .phoneticOrganizationName: box.stored.phoneticOrganizationName
            case .departmentName: box.stored.departmentName
            case .jobTitle: box.stored.jobTitle
            case .note: box.stored.note
            default: Self.notOfKind(key, "a string")
            }
        }
        @inline(__always) set {
            var value = newValue
            exchange(string: key, &value)
        }
        @inline(__always) _modify {
            var value: String = ""
            exchange(string: key, &value)
            defer { exchange(string: key, &value) }
            yield &value
        }
    }

    /// Swaps the key's value with `value`, giving these values a box of their own first.
    @inlinable @inline(__always)
    package mutating func exchange(string key: ContactKey, _ value: inout String) {
        makeUnique()
        switch key {
        case .namePrefix: swap(&value, &box.stored.namePrefix)
        case .givenName: swap(&value, &box.stored.givenName)
        case .middleName: swap(&value, &box.stored.middleName)
        case .familyName: swap(&value, &box.stored.familyName)
        case .previousFamilyName: swap(&value, &box.stored.previousFamilyName)
        case .nameSuffix: swap(&value, &box.stored.nameSuffix)
        case .nickname: swap(&value, &box.stored.nickname)
        case .phoneticGivenName: swap(&value, &box.stored.phoneticGivenName)
        case .phoneticMiddleName: swap(&value, &box.stored.phoneticMiddleName)
        case .phoneticFamilyName: swap(&value, &box.stored.phoneticFamilyName)
        case .organizationName: swap(&value, &box.stored.organizationName)
        case .phoneticOrganizationName: swap(&value, &box.stored.phoneticOrganizationName)
        case .departmentName: swap(&value, &box.stored.departmentName)
        case .jobTitle: swap(&value, &box.stored.jobTitle)
        case .note: swap(&value, &box.stored.note)
        default: Self.notOfKind(key, "a string")
        }
    }

    /// The value of a ``ContactValueKind/date`` or ``ContactValueKind/nonGregorianDate`` key.
    @inlinable package subscript(date key: ContactKey) -> DateComponents? {
        @inline(__always) get {
            switch key {
            case .birthday: box.stored.birthday
            case .nonGregorianBirthday: box.stored.nonGregorianBirthday
            default: Self.notOfKind(key, "a date")
            }
        }
        @inline(__always) set {
            var value = newValue
            exchange(date: key, &value)
        }
        @inline(__always) _modify {
            var value: DateComponents? = nil
            exchange(date: key, &value)
            defer { exchange(date: key, &value) }
            yield &value
        }
    }

    /// Swaps the key's value with `value`, giving these values a box of their own first.
    @inlinable @inline(__always)
    package mutating func exchange(date key: ContactKey, _ value: inout DateComponents?) {
        makeUnique()
        switch key {
        case .birthday: swap(&value, &box.stored.birthday)
        case .nonGregorianBirthday: swap(&value, &box.stored.nonGregorianBirthday)
        default: Self.notOfKind(key, "a date")
        }
    }

    /// The value of a ``ContactValueKind/labeledDates`` key.
    @inlinable package subscript(labeledDates key: ContactKey) -> [LabeledValue<DateComponents>] {
        @inline(__always) get {
            switch key {
            case .dates: box.stored.dates
            default: Self.notOfKind(key, "labeled dates")
            }
        }
        @inline(__always) set {
            var value = newValue
            exchange(labeledDates: key, &value)
        }
        @inline(__always) _modify {
            var value: [LabeledValue<DateComponents>] = []
            exchange(labeledDates: key, &value)
            defer { exchange(labeledDates: key, &value) }
            yield &value
        }
    }

    /// Swaps the key's value with `value`, giving these values a box of their own first.
    @inlinable @inline(__always)
    package mutating func exchange(labeledDates key: ContactKey, _ value: inout [LabeledValue<DateComponents>]) {
        makeUnique()
        switch key {
        case .dates: swap(&value, &box.stored.dates)
        default: Self.notOfKind(key, "labeled dates")
        }
    }

    /// The value of a ``ContactValueKind/labeledPhoneNumbers`` key.
    @inlinable package subscript(phoneNumbers key: ContactKey) -> [LabeledValue<PhoneNumber>] {
        @inline(__always) get {
            switch key {
            case .phoneNumbers: box.stored.phoneNumbers
            default: Self.notOfKind(key, "labeled phone numbers")
            }
        }
        @inline(__always) set {
            var value = newValue
            exchange(phoneNumbers: key, &value)
        }
        @inline(__always) _modify {
            var value: [LabeledValue<PhoneNumber>] = []
            exchange(phoneNumbers: key, &value)
            defer { exchange(phoneNumbers: key, &value) }
            yield &value
        }
    }

    /// Swaps the key's value with `value`, giving these values a box of their own first.
    @inlinable @inline(__always)
    package mutating func exchange(phoneNumbers key: ContactKey, _ value: inout [LabeledValue<PhoneNumber>]) {
        makeUnique()
        switch key {
        case .phoneNumbers: swap(&value, &box.stored.phoneNumbers)
        default: Self.notOfKind(key, "labeled phone numbers")
        }
    }

    /// The value of a ``ContactValueKind/labeledStrings`` key.
    @inlinable package subscript(labeledStrings key: ContactKey) -> [LabeledValue<String>] {
        @inline(__always) get {
            switch key {
            case .emailAddresses: box.stored.emailAddresses
            case .urlAddresses: box.stored.urlAddresses
            case .vCardExtensions: box.stored.vCardExtensions
            default: Self.notOfKind(key, "labeled strings")
            }
        }
        @inline(__always) set {
            var value = newValue
            exchange(labeledStrings: key, &value)
        }
        @inline(__always) _modify {
            var value: [LabeledValue<String>] = []
            exchange(labeledStrings: key, &value)
            defer { exchange(labeledStrings: key, &value) }
            yield &value
        }
    }

    /// Swaps the key's value with `value`, giving these values a box of their own first.
    @inlinable @inline(__always)
    package mutating func exchange(labeledStrings key: ContactKey, _ value: inout [LabeledValue<String>]) {
        makeUnique()
        switch key {
        case .emailAddresses: swap(&value, &box.stored.emailAddresses)
        case .urlAddresses: swap(&value, &box.stored.urlAddresses)
        case .vCardExtensions: swap(&value, &box.stored.vCardExtensions)
        default: Self.notOfKind(key, "labeled strings")
        }
    }

    /// The value of a ``ContactValueKind/labeledPostalAddresses`` key.
    @inlinable package subscript(postalAddresses key: ContactKey) -> [LabeledValue<PostalAddress>] {
        @inline(__always) get {
            switch key {
            case .postalAddresses: box.stored.postalAddresses
            default: Self.notOfKind(key, "labeled postal addresses")
            }
        }
        @inline(__always) set {
            var value = newValue
            exchange(postalAddresses: key, &value)
        }
        @inline(__always) _modify {
            var value: [LabeledValue<PostalAddress>] = []
            exchange(postalAddresses: key, &value)
            defer { exchange(postalAddresses: key, &value) }
            yield &value
        }
    }

    /// Swaps the key's value with `value`, giving these values a box of their own first.
    @inlinable @inline(__always)
    package mutating func exchange(postalAddresses key: ContactKey, _ value: inout [LabeledValue<PostalAddress>]) {
        makeUnique()
        switch key {
        case .postalAddresses: swap(&value, &box.stored.postalAddresses)
        default: Self.notOfKind(key, "labeled postal addresses")
        }
    }

    /// The value of a ``ContactValueKind/labeledRelations`` key.
    @inlinable package subscript(contactRelations key: ContactKey) -> [LabeledValue<ContactRelation>] {
        @inline(__always) get {
            switch key {
            case .contactRelations: box.stored.contactRelations
            default: Self.notOfKind(key, "labeled relations")
            }
        }
        @inline(__always) set {
            var value = newValue
            exchange(contactRelations: key, &value)
        }
        @inline(__always) _modify {
            var value: [LabeledValue<ContactRelation>] = []
            exchange(contactRelations: key, &value)
            defer { exchange(contactRelations: key, &value) }
            yield &value
        }
    }

    /// Swaps the key's value with `value`, giving these values a box of their own first.
    @inlinable @inline(__always)
    package mutating func exchange(contactRelations key: ContactKey, _ value: inout [LabeledValue<ContactRelation>]) {
        makeUnique()
        switch key {
        case .contactRelations: swap(&value, &box.stored.contactRelations)
        default: Self.notOfKind(key, "labeled relations")
        }
    }

    /// The value of a ``ContactValueKind/labeledSocialProfiles`` key.
    @inlinable package subscript(socialProfiles key: ContactKey) -> [LabeledValue<SocialProfile>] {
        @inline(__always) get {
            switch key {
            case .socialProfiles: box.stored.socialProfiles
            default: Self.notOfKind(key, "labeled social profiles")
            }
        }
        @inline(__always) set {
            var value = newValue
            exchange(socialProfiles: key, &value)
        }
        @inline(__always) _modify {
            var value: [LabeledValue<SocialProfile>] = []
            exchange(socialProfiles: key, &value)
            defer { exchange(socialProfiles: key, &value) }
            yield &value
        }
    }

    /// Swaps the key's value with `value`, giving these values a box of their own first.
    @inlinable @inline(__always)
    package mutating func exchange(socialProfiles key: ContactKey, _ value: inout [LabeledValue<SocialProfile>]) {
        makeUnique()
        switch key {
        case .socialProfiles: swap(&value, &box.stored.socialProfiles)
        default: Self.notOfKind(key, "labeled social profiles")
        }
    }

    /// The value of a ``ContactValueKind/labeledInstantMessageAddresses`` key.
    @inlinable package subscript(instantMessageAddresses key: ContactKey) -> [LabeledValue<InstantMessageAddress>] {
        @inline(__always) get {
            switch key {
            case .instantMessageAddresses: box.stored.instantMessageAddresses
            default: Self.notOfKind(key, "labeled instant message addresses")
            }
        }
        @inline(__always) set {
            var value = newValue
            exchange(instantMessageAddresses: key, &value)
        }
        @inline(__always) _modify {
            var value: [LabeledValue<InstantMessageAddress>] = []
            exchange(instantMessageAddresses: key, &value)
            defer { exchange(instantMessageAddresses: key, &value) }
            yield &value
        }
    }

    /// Swaps the key's value with `value`, giving these values a box of their own first.
    @inlinable @inline(__always)
    package mutating func exchange(
        instantMessageAddresses key: ContactKey, _ value: inout [LabeledValue<InstantMessageAddress>]
    ) {
        makeUnique()
        switch key {
        case .instantMessageAddresses: swap(&value, &box.stored.instantMessageAddresses)
        default: Self.notOfKind(key, "labeled instant message addresses")
        }
    }

    /// The value of a ``ContactValueKind/imageData`` key.
    @inlinable package subscript(data key: ContactKey) -> Data? {
        @inline(__always) get {
            switch key {
            case .imageData: box.stored.imageData
            default: Self.notOfKind(key, "data")
            }
        }
        @inline(__always) set {
            var value = newValue
            exchange(data: key, &value)
        }
        @inline(__always) _modify {
            var value: Data? = nil
            exchange(data: key, &value)
            defer { exchange(data: key, &value) }
            yield &value
        }
    }

    /// Swaps the key's value with `value`, giving these values a box of their own first.
    @inlinable @inline(__always)
    package mutating func exchange(data key: ContactKey, _ value: inout Data?) {
        makeUnique()
        switch key {
        case .imageData: swap(&value, &box.stored.imageData)
        default: Self.notOfKind(key, "data")
        }
    }
}
