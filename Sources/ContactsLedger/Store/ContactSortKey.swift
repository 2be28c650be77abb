import ContactsEngine
import ContactsModel
import Foundation

/// Where a contact falls in a sort order: given or family name first, then the other, then
/// organization, ignoring case and diacritics; contacts without any name by organization among
/// the others' names. Ties are broken by identifier. Fetches order by it, and so does a listing
/// kept outside the store (the web server's), so that both show one order.
package struct ContactSortKey: Sendable, Hashable, Comparable {
    /// The folded fields, compared in order.
    package var fields: [String]
    /// The contact's identifier, the tie breaker.
    package var identifier: String

    /// The keys a sort key is made from.
    package static let keys = ContactKeySet([.givenName, .familyName, .organizationName])

    /// The orders that sort (`.givenName`, `.familyName`), `.userDefault` resolved to the user's,
    /// or nil for `.none`.
    package static func resolved(_ order: ContactSortOrder) -> ContactSortOrder? {
        let resolved = order == .userDefault ? ContactsUserDefaults.shared.sortOrder : order
        return resolved == .givenName || resolved == .familyName ? resolved : nil
    }

    /// The keys of a sort key's three fields, in order, under a resolved order.
    package static func fields(_ order: ContactSortOrder) -> [ContactKey] {
        order == .givenName
            ? [.givenName, .familyName, .organizationName] : [.familyName, .givenName, .organizationName]
    }

    /// The key of a contact with these values under a resolved order.
    package init(
        identifier: String, values: ContactValues, order: ContactSortOrder, folding folds: inout SortFolding
    ) {
        var key = Self.fields(order).map { folds.fold(values[string: $0]) }
        if key[0].isEmpty && key[1].isEmpty { key = [key[2], "", ""] }
        self.fields = key
        self.identifier = identifier
    }

    package static func < (left: ContactSortKey, right: ContactSortKey) -> Bool {
        if left.fields != right.fields { return left.fields.lexicographicallyPrecedes(right.fields) }
        return left.identifier < right.identifier
    }
}

extension ContactSortKey {
    /// `items` in the order of their keys, as sorting the keys with `<` gives it: each distinct
    /// field is compared as text once (``SortRanking``), and the items by their fields' ranks.
    package static func sorted<Item>(_ items: [Item], by key: (Item) -> ContactSortKey) -> [Item] {
        var ranking = SortRanking<Int>()
        let keys = items.map(key)
        for (index, key) in keys.enumerated() {
            guard key.fields.count == 3 else { return items.indices.sorted { keys[$0] < keys[$1] }.map { items[$0] } }
            ranking.add(index, folded: key.fields[0], key.fields[1], key.fields[2])
        }
        return ranking.sorted { keys[$0].identifier }.map { items[$0] }
    }
}

/// Orders items by the sort key (``ContactSortKey``) of their names without making a key for
/// each: names repeat across an address book, so each distinct name is folded and compared as
/// text once, when the distinct names are ranked, and the items are ordered by their names'
/// ranks, and by identifier where all three are equal.
package struct SortRanking<Item> {
    /// The number of each distinct text given, raw or folded, in the order first seen.
    private var numbers: [String: Int32] = [:]
    /// Each number's folded text.
    private var folded: [String] = []
    /// Each item's three numbers, in the key's field order.
    private var fields: [Int32] = []
    private var items: [Item] = []
    private var folds = SortFolding()

    /// An empty ranking.
    package init() {}

    /// Adds items by the raw text of their names (``Projection/sortNames(of:keys:)``, read for
    /// the three fields of a sort key in its order under a resolved order: see
    /// ``ContactSortKey/fields(_:)``); `items` go with the names' slots, one for one.
    package mutating func add(_ items: [Item], names: SortNames) {
        precondition(names.numbers.count == items.count * 3, "sort names are not three a contact")
        let numbered = names.texts.map { number($0, fold: true) }
        // Whether each text folds to nothing, found once a text rather than once a contact.
        let foldsEmpty = numbered.map { folded[Int($0)].isEmpty }
        let empty = number("", fold: false)
        self.items += items
        fields.reserveCapacity(fields.count + items.count * 3)
        for index in items.indices {
            let (first, second) = (Int(names.numbers[index * 3]), Int(names.numbers[index * 3 + 1]))
            let organization = numbered[Int(names.numbers[index * 3 + 2])]
            // Made as ``ContactSortKey/init(identifier:values:order:folding:)`` makes a key.
            if foldsEmpty[first] && foldsEmpty[second] {
                fields += [organization, empty, empty]
            } else {
                fields += [numbered[first], numbered[second], organization]
            }
        }
    }

    /// Adds an item by the folded fields of its sort key.
    package mutating func add(_ item: Item, folded first: String, _ second: String, _ third: String) {
        items.append(item)
        fields += [number(first, fold: false), number(second, fold: false), number(third, fold: false)]
    }

    private mutating func number(_ text: String, fold: Bool) -> Int32 {
        if let known = numbers[text] { return known }
        let number = Int32(folded.count)
        numbers[text] = number
        folded.append(fold ? folds.fold(text) : text)
        return number
    }

    /// The items in order; `identifier` is asked only for items whose names all tie, and not
    /// when `uuid` gives every tied item's identifier as the bytes of a UUID, which order as the
    /// text does (``Projection/identifierUUID(at:)``). When `uuid` gives every item's, the items
    /// are sorted by ranks and bytes at once, in halves on two processors when there are many
    /// (``ParallelHalves``).
    package func sorted(identifier: (Item) -> String, uuid: (Item) -> UInt128? = { _ in nil }) -> [Item] {
        let ranked = ranked()
        if let keys = uuidKeys(ranked, uuid) {
            let halves = ParallelHalves.map(keys) { $0.sorted() }
            let sorted = halves.count == 2 ? UUIDKey.merged(halves[0], halves[1]) : halves[0]
            return sorted.map { items[$0.position] }
        }
        var order = items.indices.sorted { ranked[$0] < ranked[$1] }
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count && ranked[order[start]] == ranked[order[end]] { end += 1 }
            if end - start > 1 { orderByIdentifier(&order[start..<end], identifier, uuid) }
            start = end
        }
        return order.map { items[$0] }
    }

    /// Each item's three ranks, compared as one: packed into one integer while every rank fits
    /// in a third of it, which is one comparison an item pair where three were.
    private func ranked() -> [RankedFields] {
        let rank = ranks()
        let packs = rank.count < 1 << 21
        return items.indices.map { item in
            let first = UInt64(rank[Int(fields[item * 3])])
            let second = UInt64(rank[Int(fields[item * 3 + 1])])
            let third = UInt64(rank[Int(fields[item * 3 + 2])])
            return packs
                ? RankedFields(first << 42 | second << 21 | third, 0) : RankedFields(first, second << 32 | third)
        }
    }

    /// Each item's ranks with its identifier's UUID bytes, when every item's identifier is kept
    /// so: every tie is then broken by the bytes, and the items are put in order by one sort,
    /// on both processors, without looking for ties. Nil at the first item without them.
    private func uuidKeys(_ ranked: [RankedFields], _ uuid: (Item) -> UInt128?) -> [UUIDKey]? {
        var keys: [UUIDKey] = []
        keys.reserveCapacity(items.count)
        for (position, item) in items.enumerated() {
            guard let bytes = uuid(item) else { return nil }
            keys.append(UUIDKey(ranks: ranked[position], uuid: bytes, position: position))
        }
        return keys
    }

    /// Orders the positions of items whose names tie by the items' identifiers.
    private func orderByIdentifier(
        _ positions: inout ArraySlice<Int>, _ identifier: (Item) -> String, _ uuid: (Item) -> UInt128?
    ) {
        let uuids = positions.compactMap { uuid(items[$0]) }
        if uuids.count == positions.count {
            let keyed = zip(positions, uuids).sorted { $0.1 < $1.1 }
            positions.replaceSubrange(positions.indices, with: keyed.map(\.0))
            return
        }
        let keyed = positions.map { (position: $0, identifier: identifier(items[$0])) }
        positions.replaceSubrange(
            positions.indices, with: keyed.sorted { $0.identifier < $1.identifier }.map(\.position))
    }

    /// Each number's rank among the folded texts: equal text one rank, lower text a lower rank.
    private func ranks() -> [Int32] {
        let byText = folded.indices.sorted { folded[$0] < folded[$1] }
        var rank = [Int32](repeating: 0, count: folded.count)
        var current: Int32 = 0
        for (position, number) in byText.enumerated() {
            if position > 0 && folded[number] != folded[byText[position - 1]] { current += 1 }
            rank[number] = current
        }
        return rank
    }
}

/// Folds sort keys as Foundation's case-, diacritic- and width-insensitive folding does:
/// ASCII text by lowering its letters, which is all that folding does to it, and other text
/// once per distinct string, since names repeat across an address book.
package struct SortFolding {
    private var folded: [String: String] = [:]

    /// A folder with nothing remembered.
    package init() {}

    /// `text` folded.
    package mutating func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        if let known = folded[text] { return known }
        let result = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        folded[text] = result
        return result
    }
}

/// An item's ranks, then its identifier's UUID bytes, and where it was added.
private struct UUIDKey: Comparable, Sendable {
    var ranks: RankedFields
    var uuid: UInt128
    var position: Int

    static func < (left: Self, right: Self) -> Bool {
        left.ranks != right.ranks ? left.ranks < right.ranks : left.uuid < right.uuid
    }

    static func == (left: Self, right: Self) -> Bool {
        left.ranks == right.ranks && left.uuid == right.uuid
    }

    /// Two ascending arrays of keys as one; of equal keys, the left's come first. Written for
    /// these keys rather than for any `Comparable`: a generic merge in another module is not
    /// specialized, and compared every pair through witnesses.
    static func merged(_ left: [UUIDKey], _ right: [UUIDKey]) -> [UUIDKey] {
        var merged: [UUIDKey] = []
        merged.reserveCapacity(left.count + right.count)
        var (leftIndex, rightIndex) = (0, 0)
        while leftIndex < left.count && rightIndex < right.count {
            if right[rightIndex] < left[leftIndex] {
                merged.append(right[rightIndex])
                rightIndex += 1
            } else {
                merged.append(left[leftIndex])
                leftIndex += 1
            }
        }
        merged += left[leftIndex...]
        merged += right[rightIndex...]
        return merged
    }
}

/// An item's ranks: ordered as the first value, then the second.
private struct RankedFields: Comparable, Sendable {
    var high: UInt64
    var low: UInt64

    init(_ high: UInt64, _ low: UInt64) {
        self.high = high
        self.low = low
    }

    static func < (left: Self, right: Self) -> Bool {
        left.high != right.high ? left.high < right.high : left.low < right.low
    }
}
