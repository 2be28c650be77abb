import ContactsCompat
import Foundation
import Testing

/// Collects the events a history fetch visits, by kind.
final class EventLog: NSObject, CNChangeHistoryEventVisitor {
    var lines: [String] = []

    func visit(_ event: CNChangeHistoryDropEverythingEvent) { lines.append("drop") }
    func visit(_ event: CNChangeHistoryAddContactEvent) { lines.append("add \(event.contact.givenName)") }
    func visit(_ event: CNChangeHistoryUpdateContactEvent) { lines.append("update \(event.contact.givenName)") }
    func visit(_ event: CNChangeHistoryDeleteContactEvent) { lines.append("delete \(event.contactIdentifier)") }
    func visit(_ event: CNChangeHistoryAddGroupEvent) { lines.append("add group \(event.group.name)") }
    func visit(_ event: CNChangeHistoryAddMemberToGroupEvent) { lines.append("member \(event.member.identifier)") }
}

@Suite("Change history: tokens, coalesced events, the visitor, authors and groups")
struct ChangeHistoryTests {
    /// Visits every event of a fetch and returns the lines and the next token.
    func fetch(_ store: CNContactStore, _ request: CNChangeHistoryFetchRequest) throws -> ([String], Data) {
        let result = try store.enumeratorForChangeHistory(fetchRequest: request)
        let log = EventLog()
        while let event = result.value.nextObject() as? CNChangeHistoryEvent { event.accept(log) }
        return (log.lines, result.currentHistoryToken)
    }

    @Test("No token gives drop-everything and an add per contact; a token gives the changes after it")
    func tokens() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            let ada = person("Ada", "Lovelace")
            try add([ada], to: store)
            let request = CNChangeHistoryFetchRequest()
            request.additionalContactKeyDescriptors = nameKeys
            let (first, token) = try fetch(store, request)
            #expect(first == ["drop", "add Ada"])
            #expect(store.currentHistoryToken == token)
            ada.givenName = "Augusta"
            let update = CNSaveRequest()
            update.update(ada)
            try store.execute(update)
            let grace = person("Grace", "Hopper")
            try add([grace], to: store)
            let delete = CNSaveRequest()
            delete.delete(grace)
            try store.execute(delete)
            request.startingToken = token
            let (second, _) = try fetch(store, request)
            #expect(second == ["update Augusta"])
        }
    }

    @Test("Excluded authors are left out; group changes come only when asked for")
    func authorsAndGroups() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        try replay.run {
            let store = CNContactStore()
            let token = try #require(store.currentHistoryToken)
            try add([person("Sync", "Engine")], to: store, author: "com.example.sync")
            let ada = person("Ada", "Lovelace")
            let group = CNMutableGroup()
            group.name = "Friends"
            let request = CNSaveRequest()
            request.transactionAuthor = "com.example.app"
            request.add(ada, toContainerWithIdentifier: nil)
            request.add(group, toContainerWithIdentifier: nil)
            request.addMember(ada, to: group)
            try store.execute(request)
            let history = CNChangeHistoryFetchRequest()
            history.startingToken = token
            history.additionalContactKeyDescriptors = nameKeys
            history.excludedTransactionAuthors = ["com.example.sync"]
            #expect(try fetch(store, history).0 == ["add Ada"])
            history.includeGroupChanges = true
            #expect(try fetch(store, history).0 == ["add Ada", "add group Friends", "member \(ada.identifier)"])
        }
    }

    @Test("A token that is not one is changeHistoryInvalidAnchor (604)")
    func invalidToken() async throws {
        let replay = try await ContactsReplay()
        defer { replay.close() }
        replay.run {
            let request = CNChangeHistoryFetchRequest()
            request.startingToken = Data("not a token".utf8)
            #expect { try CNContactStore().enumeratorForChangeHistory(fetchRequest: request) } throws: {
                code($0) == .changeHistoryInvalidAnchor
            }
        }
    }
}
