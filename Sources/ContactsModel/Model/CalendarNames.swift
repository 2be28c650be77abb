import Foundation

/// The names under which calendars are stored and exchanged: the event codec, JSON and the audit
/// all write a calendar by the name of its `Calendar.Identifier` case.
package enum CalendarNames {
    /// The stored name of a calendar: the name of its `Calendar.Identifier` case.
    ///
    /// The names are written out rather than taken from `String(describing:)`, so that a change
    /// in Foundation's descriptions can never change what is stored.
    package static func storedName(of identifier: Calendar.Identifier) -> String {
        switch identifier {
        case .gregorian: "gregorian"
        case .buddhist: "buddhist"
        case .chinese: "chinese"
        case .coptic: "coptic"
        case .ethiopicAmeteMihret: "ethiopicAmeteMihret"
        case .ethiopicAmeteAlem: "ethiopicAmeteAlem"
        case .hebrew: "hebrew"
        case .iso8601: "iso8601"
        case .indian: "indian"
        case .islamic: "islamic"
        case .islamicCivil: "islamicCivil"
        case .japanese: "japanese"
        case .persian: "persian"
        case .republicOfChina: "republicOfChina"
        case .islamicTabular: "islamicTabular"
        case .islamicUmmAlQura: "islamicUmmAlQura"
        case .bangla: "bangla"
        case .gujarati: "gujarati"
        case .kannada: "kannada"
        case .malayalam: "malayalam"
        case .marathi: "marathi"
        case .odia: "odia"
        case .tamil: "tamil"
        case .telugu: "telugu"
        case .vikram: "vikram"
        case .dangi: "dangi"
        case .vietnamese: "vietnamese"
        // A calendar added to Foundation after this list was written makes this switch warn,
        // which fails the build; until it has a name here it cannot be stored.
        @unknown default: preconditionFailure("calendar \(identifier) has no stored name")
        }
    }

    /// The calendar a stored name names, or nil for a name this build does not know.
    package static func identifier(named name: String) -> Calendar.Identifier? {
        switch name {
        case "gregorian": .gregorian
        case "buddhist": .buddhist
        case "chinese": .chinese
        case "coptic": .coptic
        case "ethiopicAmeteMihret": .ethiopicAmeteMihret
        case "ethiopicAmeteAlem": .ethiopicAmeteAlem
        case "hebrew": .hebrew
        case "iso8601": .iso8601
        case "indian": .indian
        case "islamic": .islamic
        case "islamicCivil": .islamicCivil
        case "japanese": .japanese
        case "persian": .persian
        case "republicOfChina": .republicOfChina
        case "islamicTabular": .islamicTabular
        case "islamicUmmAlQura": .islamicUmmAlQura
        case "bangla": .bangla
        case "gujarati": .gujarati
        case "kannada": .kannada
        case "malayalam": .malayalam
        case "marathi": .marathi
        case "odia": .odia
        case "tamil": .tamil
        case "telugu": .telugu
        case "vikram": .vikram
        case "dangi": .dangi
        case "vietnamese": .vietnamese
        default: nil
        }
    }
}
