import Foundation
import LedgerStorage
import LedgerStorageTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tool's test hook: `CONTACTS_LEDGER_TEST_FAULTS` makes a write command fail chosen system
/// calls on the ledger, so that tests can see what the tool reports when a disk fills up or
/// fails (README, "Test").
///
/// The value is a comma-separated list of faults, `OPERATION[@TEXT][+SKIP]=ERRNO`: the call
/// (a ``FaultInjectingFileSystem/Operation`` name, such as `write` or `synchronizeData`), only on
/// paths containing TEXT, after letting SKIP matching calls through, fails with ERRNO (`EIO`,
/// `ENOSPC`, or a number). Unset or empty, the tool uses the system's file layer untouched.
enum TestFaults {
    /// The environment variable.
    static let variable = "CONTACTS_LEDGER_TEST_FAULTS"

    /// The file layer a write command opens the ledger with: the system's, or one that injects
    /// the faults the variable names. A malformed value is a usage error.
    static func fileSystem() throws(CommandFailure) -> any FileSystem {
        guard let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty else {
            return SystemFileSystem()
        }
        let layer = FaultInjectingFileSystem()
        for item in text.split(separator: ",") {
            layer.inject(try fault(String(item)))
        }
        return layer
    }

    /// Parses one fault.
    static func fault(_ item: String) throws(CommandFailure) -> FaultInjectingFileSystem.Fault {
        let malformed = CommandFailure(
            .usage, "\(variable): \(item) is not OPERATION[@TEXT][+SKIP]=ERRNO (such as synchronizeData=EIO)")
        let sides = item.split(separator: "=", maxSplits: 1).map(String.init)
        guard sides.count == 2, let code = errno(named: sides[1]) else { throw malformed }
        var call = sides[0]
        var skip = 0
        if let plus = call.lastIndex(of: "+") {
            guard let count = Int(call[call.index(after: plus)...]), count >= 0 else { throw malformed }
            skip = count
            call = String(call[..<plus])
        }
        var path: String?
        if let at = call.firstIndex(of: "@") {
            path = String(call[call.index(after: at)...])
            call = String(call[..<at])
        }
        guard let operation = FaultInjectingFileSystem.Operation(rawValue: call) else { throw malformed }
        return FaultInjectingFileSystem.Fault(operation, pathContains: path, skip: skip, effect: .fail(errno: code))
    }

    /// An errno value by its name (`EIO`, `ENOSPC`, `EDQUOT`, `EROFS`) or its number.
    private static func errno(named name: String) -> Int32? {
        switch name {
        case "EIO": EIO
        case "ENOSPC": ENOSPC
        case "EDQUOT": EDQUOT
        case "EROFS": EROFS
        default: Int32(name).flatMap { $0 > 0 ? $0 : nil }
        }
    }
}
