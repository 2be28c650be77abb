import LedgerStorage

/// The tool's exit codes, a contract that scripts depend on (sysexits.h values).
enum ExitCode: Int32 {
    /// Success.
    case success = 0
    /// Any other failure.
    case failure = 1
    /// The command line was wrong.
    case usage = 64
    /// Corruption found, or malformed input.
    case dataError = 65
    /// The ledger or an input file is missing.
    case noInput = 66
    /// The ledger or an output could not be created.
    case cannotCreate = 73
    /// The ledger is locked by another writer.
    case locked = 75

    /// The exit code that fits a storage error.
    init(_ error: StorageError) {
        switch error {
        case .corruption: self = .dataError
        case .notALedger(_, let reason) where reason.hasPrefix("no "): self = .noInput
        case .notALedger: self = .dataError
        case .alreadyExists: self = .cannotCreate
        case .locked: self = .locked
        case .invalidArgument: self = .usage
        case .system, .writerFailed, .limitExceeded, .closed: self = .failure
        }
    }

    /// The text `--help` prints about exit codes.
    static let helpText = """
        Exit codes: 0 success; 1 other failure; 64 usage error; 65 data error (corruption found,
        malformed input); 66 ledger or input file missing; 73 cannot create; 75 ledger locked by
        another writer.
        """
}

/// A failure a command reports: one line for stderr and the exit code.
struct CommandFailure: Error {
    var code: ExitCode
    var message: String
}
