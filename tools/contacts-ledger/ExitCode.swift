import ContactsLedger

/// The tool's exit codes, a contract that scripts depend on (sysexits.h values).
enum ExitCode: Int32 {
    /// Success.
    case success = 0
    /// Any other failure (for example a contact or group that does not exist).
    case failure = 1
    /// The command line was wrong.
    case usage = 64
    /// Corruption found, or malformed input (JSON, a vCard, a value the store refuses).
    case dataError = 65
    /// The ledger or an input file is missing.
    case noInput = 66
    /// The ledger or an output could not be created.
    case cannotCreate = 73
    /// The ledger is locked by another writer (after `--wait`).
    case locked = 75
    /// The ledger is refused: a file or directory in it is a symbolic link, or other users could
    /// reach it (group or other permission bits, another owner).
    case noPermission = 77

    /// The exit code that fits a storage error.
    init(_ error: StorageError) {
        switch error {
        case .corruption: self = .dataError
        case .notALedger(_, let reason) where reason.hasPrefix("no "): self = .noInput
        case .notALedger: self = .dataError
        case .alreadyExists: self = .cannotCreate
        case .locked: self = .locked
        case .unsafeFile: self = .noPermission
        case .invalidArgument: self = .usage
        case .system, .writerFailed, .limitExceeded, .closed: self = .failure
        }
    }

    /// The exit code that fits a store error.
    ///
    /// A storage failure reaches the tool wrapped as ``ContactStoreError/Code/dataAccessError``
    /// carrying the ``StorageError`` itself, which decides the code.
    init(_ error: ContactStoreError) {
        switch error.code {
        case .dataAccessError:
            if let storage = error.storageError {
                self.init(storage)
            } else {
                self = .failure
            }
        case .validationMultipleErrors, .validationConfigurationError, .vCardMalformed, .recordIdentifierInvalid:
            self = .dataError
        case .authorizationDenied, .unauthorizedKeys, .recordDoesNotExist, .insertedRecordAlreadyExists,
            .containmentCycle, .containmentScope, .parentRecordDoesNotExist, .predicateInvalid,
            .changeHistoryInvalidAnchor, .recordChangedSinceFetch, .storeNotWritable:
            self = .failure
        }
    }

    /// The text `--help` prints about exit codes.
    static let helpText = """
        Exit codes: 0 success; 1 other failure (such as a contact or group that does not exist); 64 usage
        error; 65 data error (corruption found, malformed input, a value the store refuses); 66 ledger or
        input file missing; 73 cannot create; 75 ledger locked by another writer after --wait;
        77 ledger refused: a file or directory in it is a symbolic link or open to other users (a ledger
        must be yours alone: directories 0700, files 0600).
        """
}

/// A failure a command reports: one line for stderr and the exit code.
struct CommandFailure: Error {
    /// The exit code.
    var code: ExitCode
    /// The line for stderr, without the tool's name.
    var message: String

    init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }
}
