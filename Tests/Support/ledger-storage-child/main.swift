// A child process for the storage crash tests.
//
//   ledger-storage-child append LEDGER THREADS   append from THREADS threads until killed; after each
//                                                 acknowledged append print "ACK SEQUENCE REQUEST-ID"
//   ledger-storage-child hold LEDGER             take the writer lock, print "LOCKED", wait to be killed
//   ledger-storage-child wait-in-completion LEDGER
//                                                 call appendAndWait from a completion (on the writer
//                                                 thread), which must stop the process, not hang it;
//                                                 print "RETURNED" if it ever returns
//
// Each payload is derived from its request id (see `payload(for:)`), so the parent can check
// that what it reads back is exactly what was acknowledged.
import Foundation
import LedgerStorage

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a line to stdout with one write(2), so lines from several threads never interleave.
func emit(_ line: String) {
    var bytes = Array((line + "\n").utf8)
    bytes.withUnsafeMutableBytes { buffer in
        var done = 0
        while done < buffer.count {
            let count = write(1, buffer.baseAddress! + done, buffer.count - done)
            if count <= 0 { exit(3) }
            done += count
        }
    }
}

/// The payload the crash tests expect for a request id: its digest, repeated to a length it picks.
func payload(for id: UUID) -> [UInt8] {
    let digest = withUnsafeBytes(of: id.uuid) { SHA256.hash($0) }.bytes
    let repeats = 1 + Int(digest[0] % 8)
    return Array((0..<repeats).map { _ in digest }.joined())
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(
        "usage: ledger-storage-child append|hold|wait-in-completion LEDGER [THREADS]\n".data(using: .utf8)!)
    exit(64)
}
do {
    let limits = JournalLimits(
        segmentBytesMax: 64 << 10, recordBytesMax: 8 << 10, groupRecordsMax: 64, groupBytesMax: 64 << 10)
    let journal = try Journal.open(at: arguments[2], options: JournalOptions(limits: limits))
    switch arguments[1] {
    case "hold":
        emit("LOCKED")
        while true { sleep(60) }
    case "append":
        let threads = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
        for _ in 0..<threads {
            Thread {
                while true {
                    let id = UUID()
                    do {
                        let receipt = try journal.appendAndWait(
                            JournalEntry(requestID: id, author: "child", schemaVersion: 1, payload: payload(for: id)))
                        emit("ACK \(receipt.sequence) \(id.uuidString)")
                    } catch {
                        emit("ERROR \(error)")
                        exit(1)
                    }
                }
            }.start()
        }
        while true { sleep(60) }
    case "wait-in-completion":
        let done = DispatchSemaphore(value: 0)
        try journal.enqueue(JournalEntry(author: "child", schemaVersion: 1, payload: [1])) { _ in
            _ = try? journal.appendAndWait(JournalEntry(author: "child", schemaVersion: 1, payload: [2]))
            done.signal()
        }
        done.wait()
        emit("RETURNED")
        exit(0)
    default:
        exit(64)
    }
} catch {
    FileHandle.standardError.write("ledger-storage-child: \(error)\n".data(using: .utf8)!)
    exit(error as? StorageError == .locked(path: LedgerPaths(root: arguments[2]).root) ? 75 : 1)
}
