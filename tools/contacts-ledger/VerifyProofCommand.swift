import ContactsLedger
import Foundation
import LedgerAudit

/// `verify-proof`: checks a proof from `prove` against checkpoints, reading nothing of the ledger.
struct VerifyProofCommand: ToolCommand {
    static let name = "verify-proof"
    static let summary = "Checks a proof from prove against checkpoints alone, offline."
    static let usage = "verify-proof PROOF --checkpoint FILE [--checkpoint FILE] [--origin ORIGIN] [--json]"
    static let help = """
        Checks a proof that `prove` printed (PROOF is its file, or - for standard input) against
        checkpoints that `checkpoint` printed, with RFC 9162's verification algorithms and nothing of
        the ledger: an inclusion proof against the checkpoint of its tree's size, a consistency proof
        against the two checkpoints of its sizes (in either order). Exits 0 and says what was proven,
        or 65 naming what does not hold: a tampered record, a rewritten or forked log, a proof of
        another tree. Check a signed checkpoint's signature with `ssh-keygen -Y verify` first.

        Options:
          --checkpoint FILE    A checkpoint; give two for a consistency proof.
          --origin ORIGIN      Requires the checkpoints to be of this origin.
          --json               Prints {"ok", "origin", "proven"}.
        """
    static let valued: Set<String> = ["checkpoint", "origin"]
    static let flags: Set<String> = ["json"]

    var proofPath: String
    var checkpointPaths: [String]
    var origin: String?
    var json: Bool

    init(_ arguments: Arguments) throws(CommandFailure) {
        proofPath = try arguments.positionals("PROOF")[0]
        checkpointPaths = arguments.values("checkpoint")
        guard (1...2).contains(checkpointPaths.count) else {
            throw CommandFailure(.usage, "give one --checkpoint for an inclusion proof, two for a consistency proof")
        }
        guard !(proofPath == "-" && checkpointPaths.contains("-")) else {
            throw CommandFailure(.usage, "only one of the proof and the checkpoints can be standard input")
        }
        origin = try arguments.single("origin")
        json = arguments.has("json")
    }

    func run(_ context: CommandContext) throws {
        do {
            let proof = try LedgerProof(parsing: try text(proofPath))
            var checkpoints: [TreeCheckpoint] = []
            for path in checkpointPaths {
                do {
                    checkpoints.append(try TreeCheckpoint(parsing: try text(path)))
                } catch let error as ProofError {
                    throw ProofError("\(path): \(error.message)")
                }
            }
            let outcome = try ProofVerification.verify(proof, against: checkpoints, origin: origin)
            if json {
                Terminal.json(["ok": true, "origin": .string(outcome.origin), "proven": .string(outcome.summary)])
            } else {
                Terminal.line("\(Terminal.good("ok")): \(outcome.summary) of \(outcome.origin)")
            }
        } catch let error as ProofError {
            throw CommandFailure(.dataError, error.message)
        }
    }

    private func text(_ path: String) throws -> String {
        let data = try readInput(path, bytesMax: 1 << 20)
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure(.dataError, "\(path) is not UTF-8 text")
        }
        return text
    }
}
