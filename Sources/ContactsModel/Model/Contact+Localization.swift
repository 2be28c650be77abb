import LedgerStorage

extension Contact {
    /// Returns the English display name of a contact key, such as "given name".
    ///
    /// This package carries no localization tables, so the names are English only.
    public static func localizedString(forKey key: ContactKey) -> String {
        switch key {
        case .identifier: "identifier"
        case .contactType: "contact type"
        case .namePrefix: "prefix"
        case .givenName: "given name"
        case .middleName: "middle name"
        case .familyName: "family name"
        case .previousFamilyName: "previous family name"
        case .nameSuffix: "suffix"
        case .nickname: "nickname"
        case .phoneticGivenName: "phonetic given name"
        case .phoneticMiddleName: "phonetic middle name"
        case .phoneticFamilyName: "phonetic family name"
        case .organizationName: "company"
        case .phoneticOrganizationName: "phonetic company name"
        case .departmentName: "department"
        case .jobTitle: "job title"
        case .note: "note"
        case .birthday: "birthday"
        case .nonGregorianBirthday: "birthday (other calendar)"
        case .dates: "dates"
        case .phoneNumbers: "phone"
        case .emailAddresses: "email"
        case .postalAddresses: "address"
        case .urlAddresses: "URL"
        case .contactRelations: "related name"
        case .socialProfiles: "social profile"
        case .instantMessageAddresses: "instant message"
        case .imageData: "image"
        case .thumbnailImageData: "thumbnail"
        case .imageDataAvailable: "image available"
        }
    }
}
