import LedgerStorage

// One static member per key, so that key sets read like option sets:
// `let keys: ContactKeySet = [.givenName, .familyName]`.

extension ContactKeySet {
    /// The set holding ``ContactKey/identifier`` alone.
    public static let identifier = ContactKeySet(ContactKey.identifier)
    /// The set holding ``ContactKey/contactType`` alone.
    public static let contactType = ContactKeySet(ContactKey.contactType)
    /// The set holding ``ContactKey/namePrefix`` alone.
    public static let namePrefix = ContactKeySet(ContactKey.namePrefix)
    /// The set holding ``ContactKey/givenName`` alone.
    public static let givenName = ContactKeySet(ContactKey.givenName)
    /// The set holding ``ContactKey/middleName`` alone.
    public static let middleName = ContactKeySet(ContactKey.middleName)
    /// The set holding ``ContactKey/familyName`` alone.
    public static let familyName = ContactKeySet(ContactKey.familyName)
    /// The set holding ``ContactKey/previousFamilyName`` alone.
    public static let previousFamilyName = ContactKeySet(ContactKey.previousFamilyName)
    /// The set holding ``ContactKey/nameSuffix`` alone.
    public static let nameSuffix = ContactKeySet(ContactKey.nameSuffix)
    /// The set holding ``ContactKey/nickname`` alone.
    public static let nickname = ContactKeySet(ContactKey.nickname)
    /// The set holding ``ContactKey/phoneticGivenName`` alone.
    public static let phoneticGivenName = ContactKeySet(ContactKey.phoneticGivenName)
    /// The set holding ``ContactKey/phoneticMiddleName`` alone.
    public static let phoneticMiddleName = ContactKeySet(ContactKey.phoneticMiddleName)
    /// The set holding ``ContactKey/phoneticFamilyName`` alone.
    public static let phoneticFamilyName = ContactKeySet(ContactKey.phoneticFamilyName)
    /// The set holding ``ContactKey/organizationName`` alone.
    public static let organizationName = ContactKeySet(ContactKey.organizationName)
    /// The set holding ``ContactKey/phoneticOrganizationName`` alone.
    public static let phoneticOrganizationName = ContactKeySet(ContactKey.phoneticOrganizationName)
    /// The set holding ``ContactKey/departmentName`` alone.
    public static let departmentName = ContactKeySet(ContactKey.departmentName)
    /// The set holding ``ContactKey/jobTitle`` alone.
    public static let jobTitle = ContactKeySet(ContactKey.jobTitle)
    /// The set holding ``ContactKey/note`` alone.
    public static let note = ContactKeySet(ContactKey.note)
    /// The set holding ``ContactKey/birthday`` alone.
    public static let birthday = ContactKeySet(ContactKey.birthday)
    /// The set holding ``ContactKey/nonGregorianBirthday`` alone.
    public static let nonGregorianBirthday = ContactKeySet(ContactKey.nonGregorianBirthday)
    /// The set holding ``ContactKey/dates`` alone.
    public static let dates = ContactKeySet(ContactKey.dates)
    /// The set holding ``ContactKey/phoneNumbers`` alone.
    public static let phoneNumbers = ContactKeySet(ContactKey.phoneNumbers)
    /// The set holding ``ContactKey/emailAddresses`` alone.
    public static let emailAddresses = ContactKeySet(ContactKey.emailAddresses)
    /// The set holding ``ContactKey/postalAddresses`` alone.
    public static let postalAddresses = ContactKeySet(ContactKey.postalAddresses)
    /// The set holding ``ContactKey/urlAddresses`` alone.
    public static let urlAddresses = ContactKeySet(ContactKey.urlAddresses)
    /// The set holding ``ContactKey/contactRelations`` alone.
    public static let contactRelations = ContactKeySet(ContactKey.contactRelations)
    /// The set holding ``ContactKey/socialProfiles`` alone.
    public static let socialProfiles = ContactKeySet(ContactKey.socialProfiles)
    /// The set holding ``ContactKey/instantMessageAddresses`` alone.
    public static let instantMessageAddresses = ContactKeySet(ContactKey.instantMessageAddresses)
    /// The set holding ``ContactKey/imageData`` alone.
    public static let imageData = ContactKeySet(ContactKey.imageData)
    /// The set holding ``ContactKey/thumbnailImageData`` alone.
    public static let thumbnailImageData = ContactKeySet(ContactKey.thumbnailImageData)
    /// The set holding ``ContactKey/imageDataAvailable`` alone.
    public static let imageDataAvailable = ContactKeySet(ContactKey.imageDataAvailable)
}
