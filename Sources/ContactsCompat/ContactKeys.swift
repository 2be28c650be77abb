import ContactsLedger

// The framework's contact key constants, each the string of its `ContactKey`, so that a key
// fetched through this module and one named natively are the same key.

/// The key of `CNContact.identifier`, usable as a ``CNKeyDescriptor``.
public let CNContactIdentifierKey: String = ContactKey.identifier.rawValue
/// The key of `CNContact.contactType`, usable as a ``CNKeyDescriptor``.
public let CNContactTypeKey: String = ContactKey.contactType.rawValue
/// The key of `CNContact.namePrefix`, usable as a ``CNKeyDescriptor``.
public let CNContactNamePrefixKey: String = ContactKey.namePrefix.rawValue
/// The key of `CNContact.givenName`, usable as a ``CNKeyDescriptor``.
public let CNContactGivenNameKey: String = ContactKey.givenName.rawValue
/// The key of `CNContact.middleName`, usable as a ``CNKeyDescriptor``.
public let CNContactMiddleNameKey: String = ContactKey.middleName.rawValue
/// The key of `CNContact.familyName`, usable as a ``CNKeyDescriptor``.
public let CNContactFamilyNameKey: String = ContactKey.familyName.rawValue
/// The key of `CNContact.previousFamilyName`, usable as a ``CNKeyDescriptor``.
public let CNContactPreviousFamilyNameKey: String = ContactKey.previousFamilyName.rawValue
/// The key of `CNContact.nameSuffix`, usable as a ``CNKeyDescriptor``.
public let CNContactNameSuffixKey: String = ContactKey.nameSuffix.rawValue
/// The key of `CNContact.nickname`, usable as a ``CNKeyDescriptor``.
public let CNContactNicknameKey: String = ContactKey.nickname.rawValue
/// The key of `CNContact.phoneticGivenName`, usable as a ``CNKeyDescriptor``.
public let CNContactPhoneticGivenNameKey: String = ContactKey.phoneticGivenName.rawValue
/// The key of `CNContact.phoneticMiddleName`, usable as a ``CNKeyDescriptor``.
public let CNContactPhoneticMiddleNameKey: String = ContactKey.phoneticMiddleName.rawValue
/// The key of `CNContact.phoneticFamilyName`, usable as a ``CNKeyDescriptor``.
public let CNContactPhoneticFamilyNameKey: String = ContactKey.phoneticFamilyName.rawValue
/// The key of `CNContact.organizationName`, usable as a ``CNKeyDescriptor``.
public let CNContactOrganizationNameKey: String = ContactKey.organizationName.rawValue
/// The key of `CNContact.phoneticOrganizationName`, usable as a ``CNKeyDescriptor``.
public let CNContactPhoneticOrganizationNameKey: String = ContactKey.phoneticOrganizationName.rawValue
/// The key of `CNContact.departmentName`, usable as a ``CNKeyDescriptor``.
public let CNContactDepartmentNameKey: String = ContactKey.departmentName.rawValue
/// The key of `CNContact.jobTitle`, usable as a ``CNKeyDescriptor``.
public let CNContactJobTitleKey: String = ContactKey.jobTitle.rawValue
/// The key of `CNContact.note`, usable as a ``CNKeyDescriptor``.
public let CNContactNoteKey: String = ContactKey.note.rawValue
/// The key of `CNContact.birthday`, usable as a ``CNKeyDescriptor``.
public let CNContactBirthdayKey: String = ContactKey.birthday.rawValue
/// The key of `CNContact.nonGregorianBirthday`, usable as a ``CNKeyDescriptor``.
public let CNContactNonGregorianBirthdayKey: String = ContactKey.nonGregorianBirthday.rawValue
/// The key of `CNContact.dates`, usable as a ``CNKeyDescriptor``.
public let CNContactDatesKey: String = ContactKey.dates.rawValue
/// The key of `CNContact.phoneNumbers`, usable as a ``CNKeyDescriptor``.
public let CNContactPhoneNumbersKey: String = ContactKey.phoneNumbers.rawValue
/// The key of `CNContact.emailAddresses`, usable as a ``CNKeyDescriptor``.
public let CNContactEmailAddressesKey: String = ContactKey.emailAddresses.rawValue
/// The key of `CNContact.postalAddresses`, usable as a ``CNKeyDescriptor``.
public let CNContactPostalAddressesKey: String = ContactKey.postalAddresses.rawValue
/// The key of `CNContact.urlAddresses`, usable as a ``CNKeyDescriptor``.
public let CNContactUrlAddressesKey: String = ContactKey.urlAddresses.rawValue
/// The key of `CNContact.contactRelations`, usable as a ``CNKeyDescriptor``.
public let CNContactRelationsKey: String = ContactKey.contactRelations.rawValue
/// The key of `CNContact.socialProfiles`, usable as a ``CNKeyDescriptor``.
public let CNContactSocialProfilesKey: String = ContactKey.socialProfiles.rawValue
/// The key of `CNContact.instantMessageAddresses`, usable as a ``CNKeyDescriptor``.
public let CNContactInstantMessageAddressesKey: String = ContactKey.instantMessageAddresses.rawValue
/// The key of `CNContact.imageData`, usable as a ``CNKeyDescriptor``.
public let CNContactImageDataKey: String = ContactKey.imageData.rawValue
/// The key of `CNContact.thumbnailImageData`, usable as a ``CNKeyDescriptor``.
public let CNContactThumbnailImageDataKey: String = ContactKey.thumbnailImageData.rawValue
/// The key of `CNContact.imageDataAvailable`, usable as a ``CNKeyDescriptor``.
public let CNContactImageDataAvailableKey: String = ContactKey.imageDataAvailable.rawValue
