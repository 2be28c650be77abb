import ContactsLedger
import Foundation
import LedgerStorage

/// `export`: every contact as vCard or JSON.
struct ExportCommand: ToolCommand {
    static let name = "export"
    static let summary = "Prints contacts as a vCard file, or as JSON."
    static let usage = "export [ID...] [--vcard-version 3.0|4.0] [--as-of POINT] [--output FILE] [--json]"
    static let help = """
        Prints the contacts with the given identifiers (each in any letter case, or a unique prefix of
        at least six characters; every contact, in storage order, when none is given) as one vCard file (version 3.0 the way Apple's Contacts writes it, or 4.0), notes and
        photos included; or, with --json, as one JSON array of contacts with every key, image data
        included. With --output the file is written (replaced atomically) instead of standard output.

        Options:
          --vcard-version V    3.0 (the default) or 4.0.
          --output FILE        Writes to FILE instead of standard output.
        \(HelpText.asOf)
          --json               Prints a JSON array of contacts instead of vCards.
        """
    static let valued: Set<String> = ["vcard-version", "as-of", "output"]
    static let flags: Set<String> = ["json"]

    var identifiers: [String]
    var version: VCardVersion
    var asOf: LedgerPoint?
    var output: String?
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        identifiers = arguments.positionals
        output = try arguments.single("output")
        version = .v3_0
        if let text = try arguments.single("vcard-version") {
            guard let parsed = VCardVersion(rawValue: text) else {
                throw CommandFailure(.usage, "--vcard-version must be 3.0 or 4.0, got \(text)")
            }
            version = parsed
        }
        asOf = try arguments.single("as-of").map { (text) throws(CommandFailure) in
            try parseLedgerPoint(text, option: "as-of")
        }
        json = arguments.has("json")
        if json && arguments.hasAny(["vcard-version"]) {
            throw CommandFailure(.usage, "--vcard-version is for vCard output, not --json")
        }
    }

    func run(_ context: CommandContext) throws {
        let store = try context.openForReading(asOf: asOf)
        let keys = json ? ContactKeySet.all : VCardSerialization.descriptorForRequiredKeys().union([.note])
        let format: ContactStream.Format = json ? .json : .vCard(version)
        var data: [UInt8] = []
        var stream = output == nil ? .standardOutput(format) : ContactStream(format) { data += $0 }
        // Values redacted by that point are missing from what is written: said on stderr.
        let redacted = try RedactedContacts.reasons(context, asOf: asOf)
        func note(_ identifier: String) {
            if let reason = redacted[identifier] {
                Terminal.errorLine("note: contact \(identifier): [redacted] \(reason)")
            }
        }
        if identifiers.isEmpty {
            // Every contact as itself, linked or not: an export is what an import must give back.
            var request = ContactFetchRequest(keysToFetch: [keys])
            request.unifyResults = false
            let selection = try store.selection(for: request)
            if !redacted.isEmpty { (0..<selection.count).forEach { note(selection.identifier(at: $0)) } }
            try stream.writing { try $0.write(selection) }
        } else {
            let found = try store.identifiers(identifiers)
            try stream.writing { stream in
                for identifier in found {
                    note(identifier)
                    try stream.write(try store.unifiedContact(withIdentifier: identifier, keysToFetch: [keys]))
                }
            }
        }
        guard let output else { return }
        do {
            // Written the way the ledger replaces its own files (a temporary file beside it, fsync,
            // rename, fsync of the directory), with the ledger's 0600: an export is personal data.
            // Foundation's atomic write on Linux leaves an empty directory in /tmp on every call.
            try SystemFileSystem().replaceAtomically(output, with: data, permissions: 0o600)
        } catch {
            throw CommandFailure(.cannotCreate, "cannot write \(output): \(error)")
        }
    }
}
