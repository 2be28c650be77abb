import ContactsEngine
import ContactsLedger
import Foundation

/// A small deterministic generator (SplitMix64): the same seed writes the same ledger.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Realistic contacts: a few hundred given and family names from many scripts (Latin with
/// diacritics, Cyrillic, Greek, CJK, Hangul), email addresses, phone numbers in the formats people
/// type, and now and then an organization, job title, address, birthday or note.
struct ContactGenerator {
    static let givenNames: [String] = [
        "Ada", "Adrián", "Agnès", "Aiko", "Akira", "Alejandro", "Aleksandr", "Alice", "Amélie", "Ana", "Anaïs",
        "Andrea",
        "Andrés", "Ángel", "Anja", "Anna", "Antoine", "Antônio", "Arjun", "Astrid", "Aurélie", "Ayşe", "Beatriz",
        "Benoît", "Björn", "Bogdan", "Brigitte", "Camille", "Carlos", "Catalina", "Cécile", "Chen", "Chloé", "Chiara",
        "Cristóbal", "Dagný", "Daniel", "David", "Dmitri", "Dóra", "Élodie", "Elena", "Elif", "Émile", "Emma", "Eoin",
        "Erik", "Esperanza", "Étienne", "Eva", "Fatima", "Fernando", "Filip", "François", "Frédéric", "Gábor",
        "Gaëlle", "Giulia", "Grace", "Guðrún", "Håkon", "Hana", "Hannah", "Héctor", "Hélène", "Hiroshi", "Ibrahim",
        "Inês", "Ingrid", "Irène", "Isabel", "Iván", "Jakub", "James", "Jan", "Javier", "Jean-Luc", "Jérôme", "Jiří",
        "João", "John", "Jørgen", "José", "Joséphine", "Juan", "Julia", "Jürgen", "Kai", "Karin", "Katarzyna", "Kenji",
        "Kofi", "Laia", "Lars", "Laura", "Léa", "Leilani", "Lena", "Léon", "Liam", "Lin", "Lucía", "Łucja", "Luis",
        "Łukasz", "Maëlle", "Magnús", "Małgorzata", "Manon", "María", "Marie", "Mário", "Mateo", "Matthias", "Mei",
        "Mikołaj", "Milan", "Mónica", "Nadia", "Naoki", "Niamh", "Nicolás", "Nikola", "Noémie", "Olga", "Oliver",
        "Ondřej", "Paweł", "Pedro", "Petra", "Pierre", "Priya", "Rafael", "Raphaël", "Renée", "Rocío", "Ruth", "Sakura",
        "Samuel", "Sára", "Sebastián", "Siobhán", "Sofía", "Søren", "Stéphane", "Susana", "Tamás", "Thérèse", "Tomás",
        "Ursula", "Valérie", "Vanessa", "Verónica", "Viktor", "Wojciech", "Xavier", "Yusuf", "Zoë", "Zoltán",
        "Ангелина", "Дмитрий", "Наталья", "Сергей", "Ελένη", "Νίκος", "太郎", "花子", "翔太", "美咲", "伟", "芳", "秀英",
        "지민", "서연", "민준",
    ]
    static let familyNames: [String] = [
        "Abbott", "Acosta", "Adler", "Ågren", "Alonso", "Álvarez", "Andersen", "Andersson", "Arslan", "Bach", "Baker",
        "Bárány", "Bauer", "Becker", "Benedetti", "Bergström", "Bernard", "Bianchi", "Błaszczyk", "Böhm", "Bonnet",
        "Brown", "Brunner", "Caldwell", "Carvalho", "Castro", "Černý", "Chapman", "Clarke", "Colombo", "Conti",
        "Costa", "Cruz", "Czerwińska", "Dąbrowski", "Dahl", "Davies", "Delgado", "Díaz", "Doležal", "Dubois", "Dvořák",
        "Eriksson", "Esposito", "Evans", "Fernández", "Ferrari", "Fischer", "Fontaine", "Forsberg", "François",
        "Gallagher", "García", "Garnier", "Gómez", "González", "Gonçalves", "Graham", "Gruber", "Guðmundsdóttir",
        "Gutiérrez", "Haas", "Hansen", "Hartmann", "Hernández", "Hoffmann", "Holm", "Horváth", "Huber", "Hughes",
        "Ivanović", "Jakobsen", "Jankowski", "Jensen", "Jiménez", "Johansson", "Jones", "Jovanović", "Kaya",
        "Keller", "Kelly", "Kiss", "Klein", "Koch", "Kovačević", "Kowalski", "Kozłowski", "Krämer", "Kuznetsov",
        "Lambert", "Lange", "Larsen", "Laurent", "Lefèvre", "Lehmann", "Lindqvist", "López", "Lorenz", "Lundgren",
        "Maier", "Marchetti", "Marković", "Martín", "Martínez", "Meyer", "Molnár", "Moreau", "Moreno", "Müller",
        "Murphy", "Nagy", "Navarro", "Neumann", "Nguyễn", "Nielsen", "Novák", "Nowak", "Núñez", "O'Brien",
        "O'Connor", "Olsen", "Ortiz", "Özdemir", "Pavlović", "Pereira", "Pérez", "Petersen", "Petit", "Phạm",
        "Popescu", "Procházka", "Quintero", "Ramírez", "Reyes", "Ricci", "Richter", "Rodríguez", "Romero", "Rossi",
        "Roux", "Russo", "Ryan", "Sánchez", "Santos", "Schäfer", "Schmidt", "Schneider", "Schulz", "Šimek",
        "Smith", "Sørensen", "Souza", "Stewart", "Suárez", "Svensson", "Szabó", "Takahashi", "Taylor", "Thomas",
        "Torres", "Tóth", "Trần", "Varga", "Vasquez", "Vogel", "Wagner", "Walsh", "Weber", "Williams", "Wiśniewski",
        "Wójcik", "Wolf", "Yılmaz", "Zieliński", "Ziegler", "Žák", "Иванов", "Смирнова", "Попов", "Παπαδόπουλος",
        "田中", "佐藤", "鈴木", "高橋", "渡辺", "山本", "王", "李", "张", "刘", "김", "이", "박",
    ]
    static let organizations = [
        "Acme Corporation", "Globex", "Initech", "Umbrella Logistics", "Société Générale d'Études", "Müller & Söhne",
        "Nordisk Fjärrvärme", "株式会社山田商事", "Estudio Pérez", "Brightwater Health", "Kowalski i Wspólnicy",
        "Oceanic Freight", "Blue Harbor Software", "Łódź Textiles",
    ]
    static let jobTitles = ["Engineer", "Director", "Account Manager", "Nurse", "Teacher", "Designer", "Analyst"]
    static let domains = [
        "example.com", "example.org", "mail.example", "post.example.de", "example.co.jp", "corp.example",
    ]
    static let cities: [(String, String, String)] = [
        ("Springfield", "US", "us"), ("Kraków", "Poland", "pl"), ("Zürich", "Switzerland", "ch"),
        ("São Paulo", "Brazil", "br"), ("Osaka", "Japan", "jp"), ("Lyon", "France", "fr"), ("Toronto", "Canada", "ca"),
    ]
    static let areaCodes = ["212", "415", "617", "312", "206", "512", "303", "404", "503", "702"]

    var random: SplitMix64
    private var serial = 0

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// An ASCII, lowercase version of a name for an email address's local part.
    static func asciiLocal(_ name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        let ascii = folded.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || $0 == "-") }
        return ascii.isEmpty ? "user" : String(String.UnicodeScalarView(ascii))
    }

    /// A phone number in one of the forms people type; US numbers mostly, some international.
    mutating func phoneNumber() -> String {
        let line = Int.random(in: 0...9_999, using: &random)
        let exchange = Int.random(in: 200...999, using: &random)
        let area = Self.areaCodes.randomElement(using: &random)!
        let last = String(format: "%04d", line)
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1: return "+1 \(area) \(exchange) \(last)"
        case 2, 3: return "(\(area)) \(exchange)-\(last)"
        case 4: return "\(area).\(exchange).\(last)"
        case 5: return "1-\(area)-\(exchange)-\(last)"
        case 6: return "+44 20 7\(exchange) \(last)"
        case 7: return "+49 30 \(exchange)\(last)"
        case 8: return "+81 3-\(exchange)-\(last)"
        default: return "\(area)-\(exchange)-\(last)"
        }
    }

    /// A new contact.
    mutating func contact() -> MutableContact {
        serial += 1
        var contact = MutableContact()
        contact.givenName = Self.givenNames.randomElement(using: &random)!
        contact.familyName = Self.familyNames.randomElement(using: &random)!
        if Int.random(in: 0..<10, using: &random) == 0 {
            contact.middleName = Self.givenNames.randomElement(using: &random)!
        }
        let local = "\(Self.asciiLocal(contact.givenName)).\(Self.asciiLocal(contact.familyName))\(serial)"
        contact.emailAddresses = [
            LabeledValue(label: Label.home, value: "\(local)@\(Self.domains.randomElement(using: &random)!)")
        ]
        contact.phoneNumbers = [
            LabeledValue(label: Label.phoneNumberMobile, value: PhoneNumber(stringValue: phoneNumber()))
        ]
        if Int.random(in: 0..<3, using: &random) == 0 {
            contact.phoneNumbers.append(LabeledValue(label: Label.work, value: PhoneNumber(stringValue: phoneNumber())))
        }
        if Int.random(in: 0..<10, using: &random) < 3 {
            contact.organizationName = Self.organizations.randomElement(using: &random)!
            contact.jobTitle = Self.jobTitles.randomElement(using: &random)!
            contact.emailAddresses.append(
                LabeledValue(label: Label.work, value: "\(local)@corp.example"))
        }
        if Int.random(in: 0..<10, using: &random) < 2 {
            let city = Self.cities.randomElement(using: &random)!
            var address = MutablePostalAddress()
            address.street = "\(Int.random(in: 1...999, using: &random)) Main Street"
            address.city = city.0
            address.postalCode = String(Int.random(in: 10_000...99_999, using: &random))
            address.country = city.1
            address.isoCountryCode = city.2
            contact.postalAddresses = [LabeledValue(label: Label.home, value: address.copy())]
        }
        if Int.random(in: 0..<10, using: &random) < 2 {
            contact.birthday = DateComponents(
                year: Int.random(in: 1940...2005, using: &random), month: Int.random(in: 1...12, using: &random),
                day: Int.random(in: 1...28, using: &random))
        }
        if Int.random(in: 0..<20, using: &random) == 0 {
            contact.note = "Met at the conference in \(Self.cities.randomElement(using: &random)!.0)."
        }
        return contact
    }

    /// Changes a fetched contact the way people do: a new number, a new address, a new name.
    mutating func update(_ contact: inout MutableContact) {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            contact.phoneNumbers.append(
                LabeledValue(label: Label.other, value: PhoneNumber(stringValue: phoneNumber())))
        case 1:
            contact.emailAddresses.append(
                LabeledValue(
                    label: Label.other, value: "\(Self.asciiLocal(contact.givenName)).new\(serial)@example.net"))
            serial += 1
        case 2:
            contact.familyName = Self.familyNames.randomElement(using: &random)!
        default:
            contact.jobTitle = Self.jobTitles.randomElement(using: &random)!
            contact.organizationName = Self.organizations.randomElement(using: &random)!
        }
    }
}
