import ContactsLedger
import Foundation
import LedgerAudit
import Testing

@Suite("contacts-ledger: contact commands")
struct ContactCommandsTests {
    @Test("add prints the identifier and the head; show, list and search find the contact")
    func addShowListSearch() throws {
        let work = try WorkDirectory().initLedger()
        let added = try work.succeed([
            "add", "--given", "Ada", "--family", "Lovelace", "--organization", "Analytical Engines", "--job-title",
            "Countess", "--note", "first programmer", "--phone", "mobile=+44 20 7946 0958", "--email",
            "home=Ada@Example.org", "--author", "tester",
        ])
        let identifier = try #require(added.identifiers(verb: "added").first)
        #expect(added.lines == ["added \(identifier)", "head 1"])

        let shown = try work.succeed(["show", identifier])
        #expect(shown.lines.first == "contact \(identifier)")
        #expect(shown.stdout.contains("Name:"))
        #expect(shown.stdout.contains("Ada Lovelace"))
        #expect(shown.stdout.contains("Phone (mobile):"))
        #expect(shown.stdout.contains("first programmer"))

        let json = try work.succeed(["show", identifier, "--json"]).json()
        // Every key but the vCard extensions, which JSON leaves out while they are empty.
        #expect(json.objectValue?.keys == ContactKey.allCases.filter { $0 != .vCardExtensions }.map(\.rawValue))
        #expect(json["identifier"] == .string(identifier))
        #expect(json["givenName"] == "Ada")
        #expect(json["jobTitle"] == "Countess")
        #expect(json["note"] == "first programmer")
        #expect(json["phoneNumbers"]?.arrayValue?.first?["label"] == .string(Label.phoneNumberMobile))
        #expect(json["phoneNumbers"]?.arrayValue?.first?["value"] == "+44 20 7946 0958")
        #expect(json["emailAddresses"]?.arrayValue?.first?["label"] == .string(Label.home))

        let list = try work.succeed(["list"])
        #expect(list.lines == ["\(identifier)  Ada Lovelace"])
        let listJSON = try work.succeed(["list", "--json"]).json()
        #expect(listJSON.arrayValue?.count == 1)
        #expect(listJSON.arrayValue?.first?["identifier"] == .string(identifier))
        #expect(listJSON.arrayValue?.first?["imageData"] == nil)

        for query in [
            ["--name", "ada love"], ["--name", "ANALYT"], ["--email", "ada@example.ORG"],
            ["--phone", "+44 20 7946-0958"],
        ] {
            let found = try work.succeed(["search"] + query)
            #expect(found.lines == ["\(identifier)  Ada Lovelace"], "\(query)")
        }
        #expect(try work.succeed(["search", "--name", "grace"]).stdout.isEmpty)
        #expect(try work.succeed(["search", "--name", "grace", "--json"]).json() == [])
    }

    @Test(
        "Friendly label names map to the framework's labels; other text is a custom label",
        arguments: [
            ("mobile", Label.phoneNumberMobile), ("iPhone", Label.phoneNumberiPhone), ("HOME", Label.home),
            ("work-fax", Label.phoneNumberWorkFax), ("pager", Label.phoneNumberPager), ("main", Label.phoneNumberMain),
            ("other", Label.other), ("boat", "boat"),
        ])
    func labels(name: String, label: String) throws {
        let work = try WorkDirectory().initLedger()
        let identifier = try work.add(["--given", "L", "--phone", "\(name)=555 0100"])
        let json = try work.succeed(["show", identifier, "--json"]).json()
        #expect(json["phoneNumbers"]?.arrayValue?.first?["label"] == .string(label))
    }

    @Test("A phone number without a label has none")
    func noLabel() throws {
        let work = try WorkDirectory().initLedger()
        let identifier = try work.add(["--given", "L", "--phone", "555 0100", "--email", "=a=b@example.com"])
        let json = try work.succeed(["show", identifier, "--json"]).json()
        #expect(json["phoneNumbers"]?.arrayValue?.first?["label"] == .null)
        #expect(json["emailAddresses"]?.arrayValue?.first?["value"] == "a=b@example.com")
    }

    @Test("update sets, clears, adds and removes; an update that changes nothing writes nothing")
    func update() throws {
        let work = try WorkDirectory().initLedger()
        let identifier = try work.add([
            "--given", "Grace", "--family", "Hopper", "--job-title", "Rear Admiral", "--phone", "work=+1 202 555 0100",
            "--phone", "home=202-555-0101", "--email", "work=grace@navy.example",
        ])
        let updated = try work.succeed([
            "update", identifier, "--given", "Grace Brewster", "--clear", "job-title", "--remove-phone", "2025550101",
            "--add-phone", "mobile=+1 202 555 0199", "--remove-email", "GRACE@navy.example", "--add-email",
            "home=grace@example.com", "--birthday", "1906-12-09", "--author", "editor",
        ])
        #expect(updated.lines == ["updated \(identifier)", "head 2"])
        let json = try work.succeed(["show", identifier, "--json"]).json()
        #expect(json["givenName"] == "Grace Brewster")
        #expect(json["jobTitle"] == "")
        #expect(json["birthday"] == ["month": 12, "day": 9, "year": 1906])
        #expect(
            json["phoneNumbers"]?.arrayValue?.compactMap { $0["value"]?.stringValue } == [
                "+1 202 555 0100", "+1 202 555 0199",
            ])
        #expect(json["emailAddresses"]?.arrayValue?.compactMap { $0["value"]?.stringValue } == ["grace@example.com"])

        // Removing by the labeled value's identifier.
        let phoneID = try #require(json["phoneNumbers"]?.arrayValue?.first?["identifier"]?.stringValue)
        try work.succeed(["update", identifier, "--remove-phone", phoneID, "--clear", "birthday"])
        let after = try work.succeed(["show", identifier, "--json"]).json()
        #expect(after["phoneNumbers"]?.arrayValue?.count == 1)
        #expect(after["birthday"] == .null)

        let unchanged = try work.succeed(["update", identifier, "--family", "Hopper"])
        #expect(unchanged.lines == ["unchanged \(identifier)", "head 3"])
        #expect(try work.succeed(["digest"]).stdout.hasPrefix("3 "))

        let missing = try work.run(["update", identifier, "--remove-phone", "999"])
        expectFailure(missing, 1, mentioning: "no phone number 999")
    }

    @Test("delete removes the contact; show --as-of still finds it before the delete")
    func deleteAndAsOf() throws {
        let work = try WorkDirectory().initLedger()
        let first = try work.succeed(["add", "--given", "Ada", "--json"]).json()
        let identifier = try #require(first["identifiers"]?.arrayValue?.first?.stringValue)
        #expect(first["sequence"] == 1)
        #expect(first["head"] == 1)
        #expect(first["alreadyCommitted"] == false)
        let time = try #require(first["time"]?.stringValue)
        #expect(RFC3339.date(from: time) != nil)
        Thread.sleep(forTimeInterval: 0.01)
        _ = try work.add(["--given", "Grace"])
        let deleted = try work.succeed(["delete", identifier])
        #expect(deleted.lines == ["deleted \(identifier)", "head 3"])

        expectFailure(try work.run(["show", identifier]), 67, mentioning: "does not exist")
        #expect(try work.succeed(["show", identifier, "--as-of", "2"]).stdout.contains("Ada"))
        #expect(try work.succeed(["list", "--as-of", "1"]).lines == ["\(identifier)  Ada"])
        #expect(try work.succeed(["list", "--as-of", time]).lines == ["\(identifier)  Ada"])
        #expect(try work.succeed(["list", "--as-of", "0"]).stdout.isEmpty)
        #expect(try work.succeed(["list", "--as-of", "1970-01-01T00:00:00Z"]).stdout.isEmpty)
        #expect(try work.succeed(["search", "--name", "ada", "--as-of", "2", "--json"]).json().arrayValue?.count == 1)
        #expect(try work.succeed(["search", "--name", "ada"]).stdout.isEmpty)
        expectFailure(try work.run(["list", "--as-of", "4"]), 1, mentioning: "after the ledger's head")
        expectFailure(try work.run(["delete", identifier]), 67, mentioning: "does not exist")
    }

    @Test("list sorts by given name, family name, the user's default, or not at all")
    func sorting() throws {
        let work = try WorkDirectory().initLedger()
        let zed = try work.add(["--given", "Zed", "--family", "Adams"])
        let amy = try work.add(["--given", "Amy", "--family", "Young"])
        let org = try work.add(["--organization", "Mid Corp"])
        func order(_ sort: String) throws -> [String] {
            try work.succeed(["list", "--sort", sort]).lines.map { String($0.prefix(while: { $0 != " " })) }
        }
        #expect(try order("given") == [amy, org, zed])
        #expect(try order("family") == [zed, org, amy])
        #expect(try order("user") == [zed, org, amy])
        #expect(Set(try order("none")) == Set([zed, amy, org]))
    }

    @Test("add --from-json reads a file or standard input; show --json output adds back as itself")
    func fromJSON() throws {
        let work = try WorkDirectory().initLedger()
        let contact: JSONValue = [
            "contactType": "organization", "organizationName": "Acme", "note": "multi\nline \"quoted\" é😀",
            "birthday": ["month": 2, "day": 29],
            "phoneNumbers": [["label": .string(Label.phoneNumberMain), "value": "+1 555 0100"]],
            "postalAddresses": [
                [
                    "label": "_$!<Work>!$_",
                    "value": ["street": "1 Main St", "city": "Springfield", "isoCountryCode": "us"],
                ]
            ],
            "socialProfiles": [["value": ["service": "Twitter", "username": "acme"]]],
            "imageData": "AAECAw==",
        ]
        try contact.serialized().write(toFile: work.path + "/contact.json", atomically: true, encoding: .utf8)
        let fromFile = try work.succeed(["add", "--from-json", "contact.json"])
        let identifier = try #require(fromFile.identifiers(verb: "added").first)
        let exported = try work.succeed(["show", identifier, "--json"])
        let json = try exported.json()
        #expect(json["organizationName"] == "Acme")
        #expect(json["note"] == contact["note"])
        #expect(json["imageData"] == "AAECAw==")
        #expect(json["imageDataAvailable"] == true)

        // Two contacts from standard input in one record.
        let two = try work.succeed(
            ["add", "--from-json", "-"], input: Data(#"[{"givenName":"A"},{"givenName":"B"}]"#.utf8))
        #expect(two.identifiers(verb: "added").count == 2)
        #expect(two.head == 2)

        // The exported object adds to another ledger as the same contact, with the same JSON.
        let other = try WorkDirectory().initLedger()
        let copied = try other.succeed(["add", "--from-json", "-"], input: Data(exported.stdout.utf8))
        #expect(copied.identifiers(verb: "added") == [identifier])
        #expect(try other.succeed(["show", identifier, "--json"]).stdout == exported.stdout)
    }

    @Test("A repeated --request-id changes nothing and prints the original result")
    func idempotentRetry() throws {
        let work = try WorkDirectory().initLedger()
        let requestID = UUID().uuidString
        let first = try work.succeed(["add", "--given", "Once", "--request-id", requestID])
        let identifier = try #require(first.identifiers(verb: "added").first)
        let again = try work.succeed(["add", "--given", "Once", "--request-id", requestID])
        #expect(again.identifiers(verb: "added") == [identifier])
        #expect(again.stdout.contains("already committed at sequence 1"))
        #expect(again.head == 1)
        let json = try work.succeed(["add", "--given", "Once", "--request-id", requestID, "--json"]).json()
        #expect(json["alreadyCommitted"] == true)
        #expect(json["requestId"] == .string(requestID))
        #expect(try work.succeed(["list"]).lines.count == 1)
    }

    @Test("--json output of every reading command is one line of JSON")
    func jsonIsOneLine() throws {
        let work = try WorkDirectory().initLedger()
        let identifier = try work.add(["--given", "A", "--note", "x\ny"])
        for arguments in [
            ["show", identifier, "--json"], ["list", "--json"], ["search", "--name", "a", "--json"],
            ["digest", "--json"],
            ["verify", "--json"], ["group", "list", "--json"],
        ] {
            let result = try work.succeed(arguments)
            #expect(result.lines.count == 1, "\(arguments)")
            #expect(throws: Never.self) { try result.json() }
        }
    }
}

@Suite("contacts-ledger: search")
struct SearchCommandTests {
    @Test("search --phone matches a national number to its stored international form, by digits")
    func phoneForms() throws {
        let work = try WorkDirectory().initLedger()
        let identifier = try work.add(["--given", "Bob", "--phone", "work=+1 202 555 0100"])
        for query in ["(202) 555-0100", "1-202-555-0100", "+12025550100"] {
            let found = try work.succeed(["--region", "us", "search", "--phone", query])
            #expect(found.lines == ["\(identifier)  Bob"], "\(query)")
        }
        #expect(try work.succeed(["search", "--phone", "202 555 0199"]).stdout.isEmpty)
    }
}
