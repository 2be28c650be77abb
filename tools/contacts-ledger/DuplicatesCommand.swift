import ContactsLedger
import LedgerAudit

/// `duplicates`: lists likely duplicate contacts, with scores and reasons; merges nothing.
struct DuplicatesCommand: ToolCommand {
    static let name = "duplicates"
    static let summary = "Lists likely duplicate contacts with their scores and reasons; changes nothing."
    static let usage = "duplicates [--min-score N] [--json]"
    static let help = """
        Lists contacts that look like one person, in clusters, highest score first. Two contacts are
        compared only when they share an email address (ignoring case), a phone number (read in the region
        of --region, so a national number matches its international form) or a name at an organization;
        each pair's score is the sum of its reasons' points, at most 100: the same email address 50, the
        same phone number 40, the same name (ignoring case, accents and spacing) 30, or 50 at the same
        organization, a nickname of the other's given name with the same family name 25. A name alone
        never reaches the default threshold. Pairs at or above the threshold are joined into clusters.
        Contacts linked with each other are not listed. Nothing is merged: see `merge` and `link`.

        It prints each cluster as `cluster N  score S`, a line per contact (`ID  NAME`) and a line per
        pair (`  S  ID ID: REASONS`), then how many contacts were examined. A progress bar is drawn on
        standard error when it is a terminal.

        Options:
          --min-score N        The lowest score reported, 1 to 100 (default 50).
          --json               Prints {"clusters": [{"score", "contacts": [{"identifier", "name"}],
                               "pairs": [{"first", "second", "score", "reasons": [{"kind", "value", "text"}]}]}],
                               "contacts", "pairsScored", "blocksPassedOver"}.
        """
    static let valued: Set<String> = ["min-score"]
    static let flags: Set<String> = ["json"]

    var options = DuplicateOptions()
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        _ = try arguments.positionals()
        if let text = try arguments.single("min-score") {
            guard let score = Int(text), (1...100).contains(score) else {
                throw CommandFailure(.usage, "--min-score must be a whole number from 1 to 100, got \(text)")
            }
            options.minimumScore = score
        }
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        let store = try context.openForReading()
        let report = try ProgressBar.counting("finding duplicates") { try store.duplicates(options, progress: $0) }
        if json {
            Terminal.json(Self.json(report))
            return
        }
        var lines: [String] = []
        for (index, cluster) in report.clusters.enumerated() {
            lines.append(Terminal.highlight("cluster \(index + 1)  score \(cluster.score)"))
            for (identifier, name) in zip(cluster.identifiers, cluster.names) {
                lines.append("  \(identifier)  \(name.isEmpty ? "(no name)" : name)")
            }
            for pair in cluster.pairs {
                let reasons = pair.reasons.map(\.description).joined(separator: "; ")
                lines.append("  \(pair.score)  \(pair.first) \(pair.second): \(reasons)")
            }
        }
        let count = report.clusters.count
        lines.append(
            "\(count) cluster\(count == 1 ? "" : "s") among \(report.contactsExamined) contacts"
                + (report.blocksPassedOver > 0
                    ? " (\(report.blocksPassedOver) shared keys held by too many contacts to compare)" : ""))
        Terminal.lines(lines)
    }

    /// The report as JSON.
    static func json(_ report: DuplicateReport) -> JSONValue {
        let clusters: [JSONValue] = report.clusters.map { cluster in
            [
                "score": .integer(cluster.score),
                "contacts": .array(
                    zip(cluster.identifiers, cluster.names).map { ["identifier": .string($0), "name": .string($1)] }),
                "pairs": .array(
                    cluster.pairs.map { pair in
                        [
                            "first": .string(pair.first), "second": .string(pair.second), "score": .integer(pair.score),
                            "reasons": .array(pair.reasons.map(reason)),
                        ]
                    }),
            ]
        }
        return [
            "clusters": .array(clusters), "contacts": .integer(report.contactsExamined),
            "pairsScored": .integer(report.pairsScored), "blocksPassedOver": .integer(report.blocksPassedOver),
        ]
    }

    /// A reason as `{"kind", "value", "text"}`.
    private static func reason(_ reason: DuplicateReason) -> JSONValue {
        let (kind, value): (String, String) =
            switch reason {
            case .sameEmailAddress(let address): ("sameEmailAddress", address)
            case .samePhoneNumber(let number): ("samePhoneNumber", number)
            case .sameName(let name): ("sameName", name)
            case .sameNameAndOrganization(let name, let organization):
                ("sameNameAndOrganization", name + " @ " + organization)
            case .nickname(let nickname, let name): ("nickname", nickname + " → " + name)
            }
        return ["kind": .string(kind), "value": .string(value), "text": .string(reason.description)]
    }
}
