import Foundation

/// Signs checkpoints the way git signs with SSH keys: `ssh-keygen -Y sign` under a namespace of
/// the ledger's own, so that anyone verifies one with `ssh-keygen -Y verify` and no code of ours.
public enum CheckpointSigning {
    /// The signature namespace: a signature made for a checkpoint cannot pass for a git commit's
    /// or a file's, whose namespaces differ.
    public static let namespace = "contacts-ledger-checkpoint"

    /// Signs the checkpoint's text with the private key at `keyPath` and returns the armored SSH
    /// signature (`-----BEGIN SSH SIGNATURE-----`).
    public static func sign(_ checkpoint: TreeCheckpoint, keyPath: String) throws(ProofError) -> String {
        guard FileManager.default.fileExists(atPath: keyPath) else { throw ProofError("no key file at \(keyPath)") }
        let program = try sshKeygen()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = ["-Y", "sign", "-n", namespace, "-f", keyPath]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw ProofError("\(program) could not be started: \(error.localizedDescription)")
        }
        input.fileHandleForWriting.write(Data(checkpoint.text.utf8))
        try? input.fileHandleForWriting.close()
        let signature = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, !signature.isEmpty else {
            let said = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw ProofError("ssh-keygen could not sign with \(keyPath): \(said.isEmpty ? "it failed" : said)")
        }
        return String(decoding: signature, as: UTF8.self)
    }

    /// The first `ssh-keygen` on `PATH`.
    static func sshKeygen() throws(ProofError) -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = String(directory) + "/ssh-keygen"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw ProofError("ssh-keygen is not on PATH; install OpenSSH's client (Debian: openssh-client) to sign")
    }
}
