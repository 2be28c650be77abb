/// Given names and their common nicknames, for telling that "Bill Gates" and "William Gates"
/// may be one person.
///
/// A small table in code rather than a data file: a hand-picked subset of the English groups of
/// the nickname list of carltonnorthern/nicknames (`names.csv`, Apache License 2.0), which was
/// drawn from genealogy sources, with a few common Spanish, Italian, German, French and Russian
/// diminutives added. Names are folded as the name index folds them (lowercase, no diacritics).
enum Nicknames {
    /// Each group: a given name and the names that are nicknames of it.
    static let groups: [[String]] = [
        ["alexander", "alex", "sasha", "sandy", "xander"], ["alexandra", "alex", "sasha", "sandra", "sandy"],
        ["andrew", "andy", "drew"], ["anthony", "tony"], ["barbara", "barb", "babs"],
        ["benjamin", "ben", "benny"], ["catherine", "cathy", "kate", "katie", "cat"],
        ["charles", "charlie", "chuck", "chas"], ["christopher", "chris", "kit"], ["daniel", "dan", "danny"],
        ["david", "dave", "davy"], ["deborah", "deb", "debbie"], ["edward", "ed", "eddie", "ted", "ned"],
        ["elizabeth", "liz", "beth", "betty", "eliza", "lisa", "libby"], ["francis", "frank", "fran"],
        ["frederick", "fred", "freddie"], ["gregory", "greg"], ["henry", "hank", "harry"],
        ["james", "jim", "jimmy", "jamie"], ["jennifer", "jen", "jenny"], ["john", "jack", "johnny"],
        ["jonathan", "jon"], ["joseph", "joe", "joey"], ["katherine", "kathy", "kate", "katie", "kay"],
        ["lawrence", "larry"], ["margaret", "maggie", "meg", "peggy", "marge"], ["matthew", "matt"],
        ["michael", "mike", "mick", "mikey"], ["nicholas", "nick", "nicky"], ["patricia", "pat", "patty", "tricia"],
        ["patrick", "pat", "paddy"], ["peter", "pete"], ["rebecca", "becky", "becca"],
        ["richard", "rick", "dick", "rich"],
        ["robert", "bob", "rob", "bobby", "bert"], ["samuel", "sam", "sammy"], ["stephen", "steve"],
        ["steven", "steve"], ["susan", "sue", "susie"], ["thomas", "tom", "tommy"], ["timothy", "tim"],
        ["victoria", "vicky", "tori"], ["william", "bill", "will", "billy", "willy", "liam"],
        ["francisco", "paco", "pancho"], ["jose", "pepe"], ["giuseppe", "beppe", "peppe"],
        ["johannes", "hans"], ["wolfgang", "wolf"], ["ivan", "vanya"],
        ["dmitri", "dima"], ["mikhail", "misha"], ["yekaterina", "katya"], ["maria", "masha"],
    ]

    /// For each name, the groups it belongs to (a nickname may belong to several).
    private static let groupsByName: [String: Set<Int>] = {
        var table: [String: Set<Int>] = [:]
        for (index, group) in groups.enumerated() {
            for name in group { table[name, default: []].insert(index) }
        }
        return table
    }()

    /// Whether two different folded given names are a name and its nickname, or two nicknames of
    /// one name.
    static func related(_ first: String, _ second: String) -> Bool {
        guard first != second, let left = groupsByName[first], let right = groupsByName[second] else { return false }
        return !left.isDisjoint(with: right)
    }
}
