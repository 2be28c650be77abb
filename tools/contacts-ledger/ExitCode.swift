import ContactsLedger

/// The tool's exit codes, a contract that scripts depend on (sysexits.h values).
enum ExitCode: Int32 {
    /// Success.
    case success = 0
    /// Any other failure.
    case failure = 1
    /// The command line was wrong.
    case usage = 64
    /// Corruption found, or malformed input (JSON, a vCard, a value the store refuses).
    case dataError = 65
    /// The ledger or an input file is missing.
    case noInput = 66
    /// The contact or group named does not exist, or the tool's client may not see it
    /// (sysexits.h's "addressee unknown", the nearest to a record that is not there).
    case notFound = 67
    /// The ledger or an output could not be created.
    case cannotCreate = 73
    /// A read or write of the ledger failed (no space left on device, an I/O error): a write
    /// command's request was not saved.
    case ioError = 74
    /// The ledger is locked by another writer (after `--wait`).
    case locked = 75
    /// The ledger is refused: a file or directory in it is a symbolic link, or other users could
    /// reach it (group or other permission bits, another owner).
    case noPermission = 77
    /// A write command's record was written but not confirmed on disk (its fdatasync failed):
    /// the request may or may not be saved. Running the command again with the request id it
    /// printed (`--request-id`) saves it exactly once. Not a sysexits.h value: none means this.
    case outcomeUnknown = 79

    /// The exit code that fits a storage error.
    init(_ error: StorageError) {
        switch error {
        case .corruption, .digestMismatch: self = .dataError
        case .notALedger(_, let reason) where reason.hasPrefix("no "): self = .noInput
        case .notALedger: self = .dataError
        case .alreadyExists: self = .cannotCreate
        case .locked: self = .locked
        case .unsafeFile: self = .noPermission
        case .invalidArgument: self = .usage
        case .system, .writerFailed: self = .ioError
        case .outcomeUnknown: self = .outcomeUnknown
        case .limitExceeded: self = .dataError
        case .closed: self = .failure
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
        case .recordDoesNotExist, .parentRecordDoesNotExist:
            self = .notFound
        case .authorizationDenied, .unauthorizedKeys, .insertedRecordAlreadyExists, .containmentCycle,
            .containmentScope, .predicateInvalid,
            .changeHistoryInvalidAnchor, .recordChangedSinceFetch, .storeNotWritable:
            self = .failure
        }
    }

    /// The text `--help` prints about exit codes.
    static let helpText = """
        Exit codes: 0 success; 1 other failure; 64 usage error (an ambiguous identifier prefix among
        them); 65 data error (corruption found, a digest mismatch, malformed input, a value the store
        refuses, a record or input file over its size limit); 66 ledger or input file missing; 67 no
        such contact or group; 73 cannot create (an output file, a restore or salvage target); 74 I/O error
        (such as no space left on device): the request was not saved; 75 ledger locked by another writer
        after --wait; 77 ledger refused: a file or directory in it is a symbolic link or open to other
        users (a ledger must be yours alone: directories 0700, files 0600); 79 outcome unknown: the
        record was written but not confirmed on disk, so run the command again with the request id it
        printed (--request-id) to save it exactly once.
        """
}

/// Runs `body`, which creates `destination` (a restored or salvaged ledger), turning a system
/// failure on the destination or inside it into "cannot create" (73): the problem is the target,
/// not the ledger read.
func creating<T>(_ destination: String, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as StorageError {
        guard case .system(_, let path, _) = error, path == destination || path.hasPrefix(destination + "/") else {
            throw error
        }
        throw CommandFailure(.cannotCreate, "cannot create \(destination): \(error)")
    }
}

/// A failure a command reports: one line for stderr and the exit code.
struct CommandFailure: Error {
    /// The exit code.
    var code: ExitCode
    /// The line for stderr, without the tool's name.
    var message: String
    /// Whether the message already names the requests concerned and what became of them, so
    /// that the tool adds nothing (`import`, whose batches have requests of their own).
    var namesRequest = false

    init(_ code: ExitCode, _ message: String, namesRequest: Bool = false) {
        self.code = code
        self.message = message
        self.namesRequest = namesRequest
    }
}
