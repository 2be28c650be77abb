// A child process for the storage crash tests.
//
//   ledger-storage-child append LEDGER THREADS   append from THREADS threads until killed; after each
//                                                 acknowledged append print "ACK SEQUENCE REQUEST-ID"
//   ledger-storage-child hold LEDGER             take the writer lock, print "LOCKED", wait to be killed
//   ledger-storage-child wait-in-completion LEDGER
//                                                 call appendAndWait from a completion (on the writer
//                                                 thread), which must stop the process, not hang it;
//                                                 print "RETURNED" if it ever returns
//   ledger-storage-child fork-uuids ROUNDS       fork ROUNDS children, each drawing four UUIDs while
//                                                 this process draws its next four; print "ROUND N
//                                                 DISJOINT" when they share none, else "ROUND N SHARED"
//                                                 (or "ROUND N SHORT" when a child wrote too little)
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

/// Draws four UUIDs in `rounds` forked children and as many times here, and prints whether each
/// child's four and this process's next four are disjoint: a child's random pool must not hand
/// out the bytes its parent hands out next. Run in a process of its own: a child forked from a
/// test process would share, while it lives, the open files, and so the ledger locks, of the tests
/// running beside it.
func forkUUIDs(rounds: Int) -> Never {
    // A part-used block in the pool at each fork; and the child's code run once here first, so
    // that the child needs no type metadata made for the first time (whose lock another thread
    // may hold at the fork).
    var warm = (RandomUUID.make().uuid, RandomUUID.make().uuid, RandomUUID.make().uuid, RandomUUID.make().uuid)
    _ = withUnsafeBytes(of: &warm) { $0.count }
    for round in 0..<rounds {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { exit(2) }
        let pid = fork()
        if pid == 0 {
            // Draws four UUIDs, writes their bytes and leaves without the runtime's teardown;
            // nothing here allocates.
            var drawn = (
                RandomUUID.make().uuid, RandomUUID.make().uuid, RandomUUID.make().uuid, RandomUUID.make().uuid
            )
            _ = withUnsafeBytes(of: &drawn) { write(fds[1], $0.baseAddress, $0.count) }
            _exit(0)
        }
        guard pid > 0 else { exit(2) }
        close(fds[1])
        let parent = Set((0..<4).map { _ in RandomUUID.make() })
        var bytes = [UInt8](repeating: 0, count: 64)
        var got = 0
        while got < 64 {
            // A child that hangs is killed rather than waited for for ever.
            var poller = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 10_000) == 1 else {
                kill(pid, SIGKILL)
                break
            }
            let count = bytes.withUnsafeMutableBytes { read(fds[0], $0.baseAddress! + got, 64 - got) }
            if count <= 0 { break }
            got += count
        }
        close(fds[0])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard got == 64 else {
            emit("ROUND \(round) SHORT")
            continue
        }
        let child = Set(
            (0..<4).map { index in
                UUID(
                    uuid: bytes[(index * 16)..<(index * 16 + 16)].withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
            })
        emit("ROUND \(round) \(child.count == 4 && child.isDisjoint(with: parent) ? "DISJOINT" : "SHARED")")
    }
    exit(0)
}

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "fork-uuids", let rounds = Int(arguments[2]) { forkUUIDs(rounds: rounds) }
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
