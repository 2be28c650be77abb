import Foundation

// The public properties of every contact key, on the immutable and the mutable contact, in the
// order of ``ContactKey``: with the key's case and row (ContactKeyTable.swift) and its storage
// (ContactValues.swift), the third and last place a new key is declared.

extension Contact {
    /// Whether the contact is a person or an organization.
    public var contactType: ContactType {
        require(.contactType)
        return values.contactType
    }

    /// The name prefix, such as "Dr.".
    public var namePrefix: String {
        require(.namePrefix)
        return values.namePrefix
    }

    /// The given name, often known as the first name.
    public var givenName: String {
        require(.givenName)
        return values.givenName
    }

    /// The middle name.
    public var middleName: String {
        require(.middleName)
        return values.middleName
    }

    /// The family name, often known as the last name.
    public var familyName: String {
        require(.familyName)
        return values.familyName
    }

    /// The previous family name, such as a maiden name.
    public var previousFamilyName: String {
        require(.previousFamilyName)
        return values.previousFamilyName
    }

    /// The name suffix, such as "Jr.".
    public var nameSuffix: String {
        require(.nameSuffix)
        return values.nameSuffix
    }

    /// The nickname.
    public var nickname: String {
        require(.nickname)
        return values.nickname
    }

    /// The phonetic spelling of the given name.
    public var phoneticGivenName: String {
        require(.phoneticGivenName)
        return values.phoneticGivenName
    }

    /// The phonetic spelling of the middle name.
    public var phoneticMiddleName: String {
        require(.phoneticMiddleName)
        return values.phoneticMiddleName
    }

    /// The phonetic spelling of the family name.
    public var phoneticFamilyName: String {
        require(.phoneticFamilyName)
        return values.phoneticFamilyName
    }

    /// The organization name.
    public var organizationName: String {
        require(.organizationName)
        return values.organizationName
    }

    /// The phonetic spelling of the organization name.
    public var phoneticOrganizationName: String {
        require(.phoneticOrganizationName)
        return values.phoneticOrganizationName
    }

    /// The department name within the organization.
    public var departmentName: String {
        require(.departmentName)
        return values.departmentName
    }

    /// The job title.
    public var jobTitle: String {
        require(.jobTitle)
        return values.jobTitle
    }

    /// The free-text note.
    public var note: String {
        require(.note)
        return values.note
    }

    /// The Gregorian birthday: month and day, and the year when known.
    public var birthday: DateComponents? {
        require(.birthday)
        return values.birthday
    }

    /// The birthday in a Chinese, Hebrew or Islamic calendar.
    public var nonGregorianBirthday: DateComponents? {
        require(.nonGregorianBirthday)
        return values.nonGregorianBirthday
    }

    /// The labeled Gregorian dates, such as anniversaries.
    public var dates: [LabeledValue<DateComponents>] {
        require(.dates)
        return values.dates
    }

    /// The labeled phone numbers.
    public var phoneNumbers: [LabeledValue<PhoneNumber>] {
        require(.phoneNumbers)
        return values.phoneNumbers
    }

    /// The labeled email addresses.
    public var emailAddresses: [LabeledValue<String>] {
        require(.emailAddresses)
        return values.emailAddresses
    }

    /// The labeled postal addresses.
    public var postalAddresses: [LabeledValue<PostalAddress>] {
        require(.postalAddresses)
        return values.postalAddresses
    }

    /// The labeled URL addresses.
    public var urlAddresses: [LabeledValue<String>] {
        require(.urlAddresses)
        return values.urlAddresses
    }

    /// The vCard properties no other key holds, each as its content line (no label).
    public var vCardExtensions: [LabeledValue<String>] {
        require(.vCardExtensions)
        return values.vCardExtensions
    }

    /// The labeled names of related people.
    public var contactRelations: [LabeledValue<ContactRelation>] {
        require(.contactRelations)
        return values.contactRelations
    }

    /// The labeled social network profiles.
    public var socialProfiles: [LabeledValue<SocialProfile>] {
        require(.socialProfiles)
        return values.socialProfiles
    }

    /// The labeled instant message addresses.
    public var instantMessageAddresses: [LabeledValue<InstantMessageAddress>] {
        require(.instantMessageAddresses)
        return values.instantMessageAddresses
    }

    /// The full-size image data.
    public var imageData: Data? {
        require(.imageData)
        return values.imageData
    }

    /// The thumbnail image data: the image data when it is at most
    /// ``Contact/thumbnailImageDataBytesMax`` bytes, otherwise nil.
    public var thumbnailImageData: Data? {
        require(.thumbnailImageData)
        return values.thumbnailImageData
    }

    /// Whether the contact has image data.
    public var imageDataAvailable: Bool {
        require(.imageDataAvailable)
        return values.imageDataAvailable
    }
}

extension MutableContact {
    /// Whether the contact is a person or an organization.
    public var contactType: ContactType {
        get {
            require(.contactType)
            return values.contactType
        }
        set {
            require(.contactType)
            values.contactType = newValue
        }
    }

    /// The name prefix, such as "Dr.".
    public var namePrefix: String {
        get {
            require(.namePrefix)
            return values.namePrefix
        }
        set {
            require(.namePrefix)
            values.namePrefix = newValue
        }
    }

    /// The given name, often known as the first name.
    public var givenName: String {
        get {
            require(.givenName)
            return values.givenName
        }
        set {
            require(.givenName)
            values.givenName = newValue
        }
    }

    /// The middle name.
    public var middleName: String {
        get {
            require(.middleName)
            return values.middleName
        }
        set {
            require(.middleName)
            values.middleName = newValue
        }
    }

    /// The family name, often known as the last name.
    public var familyName: String {
        get {
            require(.familyName)
            return values.familyName
        }
        set {
            require(.familyName)
            values.familyName = newValue
        }
    }

    /// The previous family name, such as a maiden name.
    public var previousFamilyName: String {
        get {
            require(.previousFamilyName)
            return values.previousFamilyName
        }
        set {
            require(.previousFamilyName)
            values.previousFamilyName = newValue
        }
    }

    /// The name suffix, such as "Jr.".
    public var nameSuffix: String {
        get {
            require(.nameSuffix)
            return values.nameSuffix
        }
        set {
            require(.nameSuffix)
            values.nameSuffix = newValue
        }
    }

    /// The nickname.
    public var nickname: String {
        get {
            require(.nickname)
            return values.nickname
        }
        set {
            require(.nickname)
            values.nickname = newValue
        }
    }

    /// The phonetic spelling of the given name.
    public var phoneticGivenName: String {
        get {
            require(.phoneticGivenName)
            return values.phoneticGivenName
        }
        set {
            require(.phoneticGivenName)
            values.phoneticGivenName = newValue
        }
    }

    /// The phonetic spelling of the middle name.
    public var phoneticMiddleName: String {
        get {
            require(.phoneticMiddleName)
            return values.phoneticMiddleName
        }
        set {
            require(.phoneticMiddleName)
            values.phoneticMiddleName = newValue
        }
    }

    /// The phonetic spelling of the family name.
    public var phoneticFamilyName: String {
        get {
            require(.phoneticFamilyName)
            return values.phoneticFamilyName
        }
        set {
            require(.phoneticFamilyName)
            values.phoneticFamilyName = newValue
        }
    }

    /// The organization name.
    public var organizationName: String {
        get {
            require(.organizationName)
            return values.organizationName
        }
        set {
            require(.organizationName)
            values.organizationName = newValue
        }
    }

    /// The phonetic spelling of the organization name.
    public var phoneticOrganizationName: String {
        get {
            require(.phoneticOrganizationName)
            return values.phoneticOrganizationName
        }
        set {
            require(.phoneticOrganizationName)
            values.phoneticOrganizationName = newValue
        }
    }

    /// The department name within the organization.
    public var departmentName: String {
        get {
            require(.departmentName)
            return values.departmentName
        }
        set {
            require(.departmentName)
            values.departmentName = newValue
        }
    }

    /// The job title.
    public var jobTitle: String {
        get {
            require(.jobTitle)
            return values.jobTitle
        }
        set {
            require(.jobTitle)
            values.jobTitle = newValue
        }
    }

    /// The free-text note.
    public var note: String {
        get {
            require(.note)
            return values.note
        }
        set {
            require(.note)
            values.note = newValue
        }
    }

    /// The Gregorian birthday: month and day, and the year when known.
    public var birthday: DateComponents? {
        get {
            require(.birthday)
            return values.birthday
        }
        set {
            require(.birthday)
            values.birthday = newValue
        }
    }

    /// The birthday in a Chinese, Hebrew or Islamic calendar.
    public var nonGregorianBirthday: DateComponents? {
        get {
            require(.nonGregorianBirthday)
            return values.nonGregorianBirthday
        }
        set {
            require(.nonGregorianBirthday)
            values.nonGregorianBirthday = newValue
        }
    }

    /// The labeled Gregorian dates, such as anniversaries.
    public var dates: [LabeledValue<DateComponents>] {
        get {
            require(.dates)
            return values.dates
        }
        set {
            require(.dates)
            values.dates = newValue
        }
    }

    /// The labeled phone numbers.
    public var phoneNumbers: [LabeledValue<PhoneNumber>] {
        get {
            require(.phoneNumbers)
            return values.phoneNumbers
        }
        set {
            require(.phoneNumbers)
            values.phoneNumbers = newValue
        }
    }

    /// The labeled email addresses.
    public var emailAddresses: [LabeledValue<String>] {
        get {
            require(.emailAddresses)
            return values.emailAddresses
        }
        set {
            require(.emailAddresses)
            values.emailAddresses = newValue
        }
    }

    /// The labeled postal addresses.
    public var postalAddresses: [LabeledValue<PostalAddress>] {
        get {
            require(.postalAddresses)
            return values.postalAddresses
        }
        set {
            require(.postalAddresses)
            values.postalAddresses = newValue
        }
    }

    /// The labeled URL addresses.
    public var urlAddresses: [LabeledValue<String>] {
        get {
            require(.urlAddresses)
            return values.urlAddresses
        }
        set {
            require(.urlAddresses)
            values.urlAddresses = newValue
        }
    }

    /// The vCard properties no other key holds, each as its content line (no label).
    public var vCardExtensions: [LabeledValue<String>] {
        get {
            require(.vCardExtensions)
            return values.vCardExtensions
        }
        set {
            require(.vCardExtensions)
            values.vCardExtensions = newValue
        }
    }

    /// The labeled names of related people.
    public var contactRelations: [LabeledValue<ContactRelation>] {
        get {
            require(.contactRelations)
            return values.contactRelations
        }
        set {
            require(.contactRelations)
            values.contactRelations = newValue
        }
    }

    /// The labeled social network profiles.
    public var socialProfiles: [LabeledValue<SocialProfile>] {
        get {
            require(.socialProfiles)
            return values.socialProfiles
        }
        set {
            require(.socialProfiles)
            values.socialProfiles = newValue
        }
    }

    /// The labeled instant message addresses.
    public var instantMessageAddresses: [LabeledValue<InstantMessageAddress>] {
        get {
            require(.instantMessageAddresses)
            return values.instantMessageAddresses
        }
        set {
            require(.instantMessageAddresses)
            values.instantMessageAddresses = newValue
        }
    }

    /// The full-size image data.
    public var imageData: Data? {
        get {
            require(.imageData)
            return values.imageData
        }
        set {
            require(.imageData)
            values.imageData = newValue
        }
    }

    /// The thumbnail image data: the image data when it is at most
    /// ``Contact/thumbnailImageDataBytesMax`` bytes, otherwise nil.
    public var thumbnailImageData: Data? {
        require(.thumbnailImageData)
        return values.thumbnailImageData
    }

    /// Whether the contact has image data.
    public var imageDataAvailable: Bool {
        require(.imageDataAvailable)
        return values.imageDataAvailable
    }
}
