import ContactsLedger
import Foundation

/// A contact whose properties can be changed and saved, like the framework's `CNMutableContact`.
///
/// `CNMutableContact()` is a new contact with every key available; a mutable copy of a fetched
/// contact may read and change only the keys that were fetched ("You may modify only those
/// properties whose values you fetched"). To clear a value, set a string or an array to empty
/// and anything else to nil. Like the framework's, it is not thread-safe.
public final class CNMutableContact: CNContact, @unchecked Sendable {
    /// Whether the contact is a person or an organization.
    public override var contactType: CNContactType {
        get { super.contactType }
        set {
            require(.contactType)
            native.contactType = ContactType(rawValue: newValue.rawValue) ?? .person
        }
    }

    /// The name prefix, such as "Dr.".
    public override var namePrefix: String {
        get { super.namePrefix }
        set {
            require(.namePrefix)
            native.namePrefix = newValue
        }
    }

    /// The given name, often known as the first name.
    public override var givenName: String {
        get { super.givenName }
        set {
            require(.givenName)
            native.givenName = newValue
        }
    }

    /// The middle name.
    public override var middleName: String {
        get { super.middleName }
        set {
            require(.middleName)
            native.middleName = newValue
        }
    }

    /// The family name, often known as the last name.
    public override var familyName: String {
        get { super.familyName }
        set {
            require(.familyName)
            native.familyName = newValue
        }
    }

    /// The previous family name, such as a maiden name.
    public override var previousFamilyName: String {
        get { super.previousFamilyName }
        set {
            require(.previousFamilyName)
            native.previousFamilyName = newValue
        }
    }

    /// The name suffix, such as "Jr.".
    public override var nameSuffix: String {
        get { super.nameSuffix }
        set {
            require(.nameSuffix)
            native.nameSuffix = newValue
        }
    }

    /// The nickname.
    public override var nickname: String {
        get { super.nickname }
        set {
            require(.nickname)
            native.nickname = newValue
        }
    }

    /// The phonetic spelling of the given name.
    public override var phoneticGivenName: String {
        get { super.phoneticGivenName }
        set {
            require(.phoneticGivenName)
            native.phoneticGivenName = newValue
        }
    }

    /// The phonetic spelling of the middle name.
    public override var phoneticMiddleName: String {
        get { super.phoneticMiddleName }
        set {
            require(.phoneticMiddleName)
            native.phoneticMiddleName = newValue
        }
    }

    /// The phonetic spelling of the family name.
    public override var phoneticFamilyName: String {
        get { super.phoneticFamilyName }
        set {
            require(.phoneticFamilyName)
            native.phoneticFamilyName = newValue
        }
    }

    /// The organization name.
    public override var organizationName: String {
        get { super.organizationName }
        set {
            require(.organizationName)
            native.organizationName = newValue
        }
    }

    /// The phonetic spelling of the organization name.
    public override var phoneticOrganizationName: String {
        get { super.phoneticOrganizationName }
        set {
            require(.phoneticOrganizationName)
            native.phoneticOrganizationName = newValue
        }
    }

    /// The department name.
    public override var departmentName: String {
        get { super.departmentName }
        set {
            require(.departmentName)
            native.departmentName = newValue
        }
    }

    /// The job title.
    public override var jobTitle: String {
        get { super.jobTitle }
        set {
            require(.jobTitle)
            native.jobTitle = newValue
        }
    }

    /// The note (reading or writing it needs the notes entitlement).
    public override var note: String {
        get { super.note }
        set {
            require(.note)
            native.note = newValue
        }
    }

    /// The Gregorian birthday: month and day, and the year when known.
    public override var birthday: DateComponents? {
        get { super.birthday }
        set {
            require(.birthday)
            native.birthday = newValue
        }
    }

    /// The birthday in a Chinese, Hebrew or Islamic calendar.
    public override var nonGregorianBirthday: DateComponents? {
        get { super.nonGregorianBirthday }
        set {
            require(.nonGregorianBirthday)
            native.nonGregorianBirthday = newValue
        }
    }

    /// The labeled Gregorian dates, such as anniversaries.
    public override var dates: [CNLabeledValue<NSDateComponents>] {
        get { super.dates }
        set {
            require(.dates)
            native.dates = newValue.map { $0.native { $0 as DateComponents } }
        }
    }

    /// The labeled phone numbers.
    public override var phoneNumbers: [CNLabeledValue<CNPhoneNumber>] {
        get { super.phoneNumbers }
        set {
            require(.phoneNumbers)
            native.phoneNumbers = newValue.map { $0.native(\.native) }
        }
    }

    /// The labeled email addresses.
    public override var emailAddresses: [CNLabeledValue<NSString>] {
        get { super.emailAddresses }
        set {
            require(.emailAddresses)
            native.emailAddresses = newValue.map { $0.native { $0 as String } }
        }
    }

    /// The labeled postal addresses.
    public override var postalAddresses: [CNLabeledValue<CNPostalAddress>] {
        get { super.postalAddresses }
        set {
            require(.postalAddresses)
            native.postalAddresses = newValue.map { $0.native { $0.native.copy() } }
        }
    }

    /// The labeled URL addresses.
    public override var urlAddresses: [CNLabeledValue<NSString>] {
        get { super.urlAddresses }
        set {
            require(.urlAddresses)
            native.urlAddresses = newValue.map { $0.native { $0 as String } }
        }
    }

    /// The labeled names of related people.
    public override var contactRelations: [CNLabeledValue<CNContactRelation>] {
        get { super.contactRelations }
        set {
            require(.contactRelations)
            native.contactRelations = newValue.map { $0.native(\.native) }
        }
    }

    /// The labeled social network profiles.
    public override var socialProfiles: [CNLabeledValue<CNSocialProfile>] {
        get { super.socialProfiles }
        set {
            require(.socialProfiles)
            native.socialProfiles = newValue.map { $0.native(\.native) }
        }
    }

    /// The labeled instant message addresses.
    public override var instantMessageAddresses: [CNLabeledValue<CNInstantMessageAddress>] {
        get { super.instantMessageAddresses }
        set {
            require(.instantMessageAddresses)
            native.instantMessageAddresses = newValue.map { $0.native(\.native) }
        }
    }

    /// The full-size image data.
    public override var imageData: Data? {
        get { super.imageData }
        set {
            require(.imageData)
            native.imageData = newValue
        }
    }
}
