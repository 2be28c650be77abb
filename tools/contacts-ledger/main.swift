// contacts-ledger: the command-line tool over a ContactsLedger ledger. Every command is a thin
// call into the library; anything it does, a Swift program can do through the same API.
import Foundation

exit(Tool.run(Array(CommandLine.arguments.dropFirst())).rawValue)
