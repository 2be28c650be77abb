import ContactsModel
import Foundation

/// The mapping between the model's labels and vCard `TYPE` parameters and `X-ABLabel` values.
///
/// Writing follows Apple: a label that has a `TYPE` form is written as `TYPE` parameters; any
/// other label (a custom one, or a standard one without a `TYPE` such as `_$!<Anniversary>!$_`)
/// goes into an `X-ABLabel` property in the same `itemN.` group, verbatim. Reading undoes
/// both, and maps Apple's `_$!<Name>!$_` form (with or without the underscores) back to the
/// standard constants.
enum VCardLabels {
    /// A kind of labeled property, for the `TYPE` tables.
    enum Kind {
        case phone
        case email
        case address
        case url
        case instantMessage
        case relation

        /// The kind of a labeled property, by its name; nil for a property whose labels have no
        /// `TYPE` form and go into `X-ABLabel` (`X-ABRELATEDNAMES`, `X-ABDATE`, ...).
        init?(property: String) {
            switch property.uppercased() {
            case "TEL": self = .phone
            case "EMAIL": self = .email
            case "ADR": self = .address
            case "URL": self = .url
            case "IMPP": self = .instantMessage
            case "RELATED": self = .relation
            default: return nil
            }
        }
    }

    /// Type tokens that say nothing about the label and are skipped when reading.
    static let neutralTokens: Set<String> = [
        "pref", "voice", "internet", "x400", "msg", "video", "bbs", "modem", "car", "isdn", "pcs", "text",
        "textphone", "dom", "intl", "postal", "parcel", "x-irmc-n",
    ]

    private static let standardLabelsByLowercase: [String: String] = {
        var table: [String: String] = [:]
        for label in Label.allLabels {
            table[label.lowercased()] = label
        }
        return table
    }()

    /// The label an `X-ABLabel` value stands for: a standard constant when the value is one in
    /// Apple's `_$!<Name>!$_` form (any case, underscores optional); any other `$!<Name>!$`
    /// value in the canonical `_$!<Name>!$_` form; free text verbatim; nil for an empty value.
    static func label(fromABLabel text: String) -> String? {
        guard !text.isEmpty else { return nil }
        var inner = Substring(text)
        if inner.hasPrefix("_") {
            inner = inner.dropFirst()
        }
        if inner.hasSuffix("_") {
            inner = inner.dropLast()
        }
        guard inner.hasPrefix("$!<"), inner.hasSuffix(">!$"), inner.count >= 6 else {
            return text
        }
        let canonical = "_" + inner + "_"
        return standardLabelsByLowercase[canonical.lowercased()] ?? canonical
    }

    /// The label that type tokens stand for, for a kind of property.
    ///
    /// Standard tokens map to the standard labels (see the table in `Documentation/VCard.md`);
    /// neutral tokens (`PREF`, `VOICE`, `INTERNET`, ...) are skipped. When no token maps, the
    /// tokens given explicitly as `TYPE=` values that are not neutral become a custom label,
    /// joined with commas (WhatsApp's `TYPE=WhatsApp`); bare 2.1 parameters never do.
    static func label(forTypes header: VCardHeader, kind: Kind) -> String? {
        let tokens = header.lowercasedTypeTokens
        if let standard = standardLabel(tokens: tokens, kind: kind) {
            return standard
        }
        var explicit: [String] = []
        for parameter in header.parameters where parameter.name == "TYPE" {
            for value in parameter.values {
                for token in value.split(separator: ",") {
                    let trimmed = token.vcardTrimmed()
                    if !trimmed.isEmpty, !neutralTokens.contains(trimmed.lowercased()), !explicit.contains(trimmed) {
                        explicit.append(trimmed)
                    }
                }
            }
        }
        return explicit.isEmpty ? nil : explicit.joined(separator: ",")
    }

    private static func standardLabel(tokens: Set<String>, kind: Kind) -> String? {
        switch kind {
        case .phone:
            if tokens.contains("fax") {
                if tokens.contains("home") { return Label.phoneNumberHomeFax }
                if tokens.contains("work") { return Label.phoneNumberWorkFax }
                return Label.phoneNumberOtherFax
            }
            if tokens.contains("iphone") { return Label.phoneNumberiPhone }
            if tokens.contains("applewatch") { return Label.phoneNumberAppleWatch }
            if tokens.contains("cell") || tokens.contains("mobile") { return Label.phoneNumberMobile }
            if tokens.contains("main") { return Label.phoneNumberMain }
            if tokens.contains("pager") { return Label.phoneNumberPager }
            return generalLabel(tokens)
        case .email, .address, .url, .instantMessage:
            return generalLabel(tokens)
        case .relation:
            let relations: [(String, String)] = [
                ("spouse", Label.contactRelationSpouse), ("child", Label.contactRelationChild),
                ("parent", Label.contactRelationParent), ("sibling", Label.contactRelationSibling),
                ("friend", Label.contactRelationFriend), ("colleague", Label.contactRelationColleague),
                ("co-worker", Label.contactRelationColleague),
            ]
            return relations.first { tokens.contains($0.0) }?.1
        }
    }

    private static func generalLabel(_ tokens: Set<String>) -> String? {
        if tokens.contains("home") { return Label.home }
        if tokens.contains("work") { return Label.work }
        if tokens.contains("school") { return Label.school }
        if tokens.contains("other") { return Label.other }
        return nil
    }

    /// The `TYPE` tokens (upper case, as Apple writes them in 3.0) that stand for a label, or
    /// nil when the label has no `TYPE` form and must be written as an `X-ABLabel`.
    ///
    /// A nil label has the empty token list. Email addresses also get `INTERNET` in 3.0; that
    /// is added by the writer.
    static func typeTokens(for label: String?, kind: Kind) -> [String]? {
        guard let label else { return [] }
        switch kind {
        case .phone:
            switch label {
            case Label.phoneNumberMobile: return ["CELL", "VOICE"]
            case Label.phoneNumberiPhone: return ["IPHONE", "CELL", "VOICE"]
            case Label.home: return ["HOME", "VOICE"]
            case Label.work: return ["WORK", "VOICE"]
            case Label.phoneNumberMain: return ["MAIN"]
            case Label.phoneNumberHomeFax: return ["HOME", "FAX"]
            case Label.phoneNumberWorkFax: return ["WORK", "FAX"]
            case Label.phoneNumberOtherFax: return ["OTHER", "FAX"]
            case Label.phoneNumberPager: return ["PAGER"]
            case Label.other: return ["OTHER", "VOICE"]
            default: return nil
            }
        case .email, .address, .url, .instantMessage:
            switch label {
            case Label.home: return ["HOME"]
            case Label.work: return ["WORK"]
            case Label.other: return ["OTHER"]
            default: return nil
            }
        case .relation:
            return nil
        }
    }
}

/// Instant messaging and social profile services as vCards name them.
enum VCardServices {
    /// The URI scheme Apple writes in `IMPP` for a service; `x-apple` for any other.
    static func scheme(forInstantMessageService service: String) -> String {
        switch service {
        case InstantMessageAddress.Service.aim, InstantMessageAddress.Service.icq: "aim"
        case InstantMessageAddress.Service.facebook, InstantMessageAddress.Service.googleTalk,
            InstantMessageAddress.Service.jabber:
            "xmpp"
        case InstantMessageAddress.Service.msn: "msnim"
        case InstantMessageAddress.Service.skype: "skype"
        case InstantMessageAddress.Service.yahoo: "ymsgr"
        default: "x-apple"
        }
    }

    /// The service an `IMPP` URI scheme implies when no `X-SERVICE-TYPE` names one; the scheme
    /// itself for an unknown one, and the empty string for Apple's `x-apple`.
    static func instantMessageService(forScheme scheme: String) -> String {
        switch scheme.lowercased() {
        case "aim": InstantMessageAddress.Service.aim
        case "xmpp", "jabber": InstantMessageAddress.Service.jabber
        case "msnim", "msn": InstantMessageAddress.Service.msn
        case "skype": InstantMessageAddress.Service.skype
        case "ymsgr", "yahoo": InstantMessageAddress.Service.yahoo
        case "icq": InstantMessageAddress.Service.icq
        case "gtalk": InstantMessageAddress.Service.googleTalk
        case "qq": InstantMessageAddress.Service.qq
        case "gg", "gadugadu": InstantMessageAddress.Service.gaduGadu
        case "fb", "facebook": InstantMessageAddress.Service.facebook
        case "x-apple": ""
        default: scheme
        }
    }

    /// The standard service for a name, ignoring case and a few aliases (`GTalk`,
    /// `Google Talk`, `Gadu-Gadu`); any other name verbatim.
    static func canonicalInstantMessageService(_ name: String) -> String {
        let key = name.lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" }
        switch key {
        case "gtalk", "googletalk": return InstantMessageAddress.Service.googleTalk
        case "gadugadu": return InstantMessageAddress.Service.gaduGadu
        default:
            return InstantMessageAddress.Service.all.first { $0.lowercased() == key } ?? name
        }
    }

    /// The property names that carry one service's instant message address each, as Gmail,
    /// Evolution and old Apple exporters write them.
    static let instantMessageProperties: [String: String] = [
        "X-AIM": InstantMessageAddress.Service.aim, "X-JABBER": InstantMessageAddress.Service.jabber,
        "X-SKYPE": InstantMessageAddress.Service.skype, "X-SKYPE-USERNAME": InstantMessageAddress.Service.skype,
        "X-QQ": InstantMessageAddress.Service.qq, "X-ICQ": InstantMessageAddress.Service.icq,
        "X-MSN": InstantMessageAddress.Service.msn, "X-YAHOO": InstantMessageAddress.Service.yahoo,
        "X-GTALK": InstantMessageAddress.Service.googleTalk,
        "X-GOOGLE-TALK": InstantMessageAddress.Service.googleTalk,
        "X-GADUGADU": InstantMessageAddress.Service.gaduGadu,
    ]

    /// The service name Apple writes as the `TYPE` of an `X-SOCIALPROFILE`: lower case for a
    /// standard service, verbatim for another.
    static func socialType(forService service: String) -> String {
        SocialProfile.Service.all.contains(service) ? service.lowercased() : service
    }

    /// The standard social service for a `TYPE` value, ignoring case; any other name verbatim.
    static func canonicalSocialService(_ name: String) -> String {
        SocialProfile.Service.all.first { $0.lowercased() == name.lowercased() } ?? name
    }
}
