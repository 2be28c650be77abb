import Foundation

/// Where in a ledger a problem was found: the file and the byte offset within it.
public struct LedgerLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file's name relative to the ledger directory, for example `journal/00000000000000000001.seg`.
    public var file: String
    /// The byte offset within the file.
    public var offset: Int64

    /// Creates a location from a file name and a byte offset.
    public init(file: String, offset: Int64) {
        self.file = file
        self.offset = offset
    }

    /// The location as `file at offset N`.
    public var description: String { "\(file) at offset \(offset)" }
}

/// An error raised by the storage layer, with the context a caller needs to act on it.
///
/// Every case names the file or ledger involved, so that the one line a tool prints
/// is enough to find the problem.
public enum StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed; carries the operation, the path and the `errno` value.
    case system(operation: String, path: String, errno: Int32)
    /// Another process holds the ledger's writer lock.
    case locked(path: String)
    /// The directory is not a ledger, or its identity file is damaged.
    case notALedger(path: String, reason: String)
    /// A file or directory of the ledger is a symbolic link, is not what the format puts there,
    /// or could be reached by other users (group or other permission bits, or another owner):
    /// the ledger is refused rather than followed out of or written where others can plant links.
    case unsafeFile(path: String, reason: String)
    /// A ledger (or other content) already exists where a new one was to be created.
    case alreadyExists(path: String)
    /// The journal is damaged somewhere other than a torn tail; it is never skipped silently.
    case corruption(location: LedgerLocation, reason: String)
    /// The record at a digest's sequence carries another hash than the digest saved earlier:
    /// something up to that point was altered, or the digest belongs to another ledger.
    case digestMismatch(sequence: UInt64, expected: String, found: String)
    /// The writer failed (a write or fsync error, here or earlier) before the record was written:
    /// it is not in the journal, and the writer refuses further appends until reopened.
    case writerFailed(cause: String)
    /// The record was handed to a write whose fdatasync did not succeed: it may or may not be
    /// durable, and a later open may find it. The writer has failed, as for ``writerFailed(cause:)``.
    /// Retrying the same request (the same request id) after reopening saves it exactly once.
    case outcomeUnknown(cause: String)
    /// A value is over one of the format's limits.
    case limitExceeded(what: String, limit: Int, actual: Int)
    /// The journal or writer was already closed.
    case closed
    /// A caller-supplied argument is outside what the layer accepts.
    case invalidArgument(String)

    /// The errno value for system errors, or nil for every other case.
    public var errno: Int32? {
        if case .system(_, _, let code) = self { return code }
        return nil
    }

    /// One line that names the problem and where it is.
    public var description: String {
        switch self {
        case .system(let operation, let path, let code):
            return "\(operation) failed on \(path): \(String(cString: strerror(code))) (errno \(code))"
        case .locked(let path):
            return "ledger is locked by another process: \(path)"
        case .notALedger(let path, let reason):
            return "not a ledger: \(path): \(reason)"
        case .unsafeFile(let path, let reason):
            return "refusing the ledger: \(path) \(reason)"
        case .alreadyExists(let path):
            return "already exists and is not empty: \(path)"
        case .corruption(let location, let reason):
            return "journal corruption in \(location): \(reason)"
        case .digestMismatch(let sequence, let expected, let found):
            return "digest mismatch at sequence \(sequence): expected \(expected), found \(found)"
        case .writerFailed(let cause):
            return "the ledger writer failed and accepts no more appends until reopened: \(cause)"
        case .outcomeUnknown(let cause):
            return "the record was written but not confirmed on disk, so it may or may not be in the ledger: \(cause)"
        case .limitExceeded(let what, let limit, let actual):
            return "\(what) is \(actual), over the limit of \(limit)"
        case .closed:
            return "the ledger is closed"
        case .invalidArgument(let message):
            return "invalid argument: \(message)"
        }
    }
}
