import ContactsLedger
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a ledger costs its user: its bytes on disk by kind, and the memory an open with a
/// snapshot takes at its peak and once it is done.
///
/// The disk is measured in the bench's own process after the ledger is written and closed. The
/// memory is measured in a child process of its own (`--measure-footprint`), which does nothing
/// but open the ledger, so that its peak resident size is the open's and nothing else's: the
/// peak (`VmHWM` of `/proc/self/status`) is reset just before the open by writing 5 to
/// `/proc/self/clear_refs`, and both figures count from the resident size before the open.
enum FootprintBench {
    /// A ledger's bytes on disk: the segment files of `journal/`, the files of `snapshots/`, and
    /// everything else (`HEAD`, `TREE`, `LEDGER`, `LOCK`...), by their sizes.
    static func diskBytes(ledger: String) -> [String: Int] {
        var journal = 0
        var snapshots = 0
        var other = 0
        let manager = FileManager.default
        guard let names = manager.enumerator(atPath: ledger) else { return [:] }
        for case let name as String in names {
            let attributes = try? manager.attributesOfItem(atPath: ledger + "/" + name)
            guard (attributes?[.type] as? FileAttributeType) == .typeRegular else { continue }
            let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
            if name.hasPrefix("journal/") {
                journal += size
            } else if name.hasPrefix("snapshots/") {
                snapshots += size
            } else {
                other += size
            }
        }
        return ["journal": journal, "snapshots": snapshots, "other": other]
    }

    /// The child's work: opens the ledger at `path` for writing (with its snapshot), and returns
    /// the peak and steady resident sizes the open added.
    static func measureOpen(path: String) throws -> [String: Any] {
        let before = statusBytes("VmRSS")
        resetPeak()
        let store = try ContactStore(ledgerAt: path, client: .fullAccess("bench-footprint", region: benchRegion))
        defer { store.close() }
        let peak = statusBytes("VmHWM") - before
        let steady = statusBytes("VmRSS") - before
        return ["peak_open_bytes": peak, "steady_bytes": steady]
    }

    /// Runs this executable again to measure the open of the ledger at `path`, of `contacts`
    /// contacts, in a fresh process; returns the memory figures with the ratios.
    static func measureMemoryInChild(_ path: String, contacts: Int) throws -> [String: Any] {
        var object = try childJSON(["--measure-footprint", path])
        guard let peak = object["peak_open_bytes"] as? Int, let steady = object["steady_bytes"] as? Int else {
            throw UsageError("measuring the footprint of \(path) gave no memory figures")
        }
        object["steady_bytes_per_contact"] = Double(steady) / Double(max(1, contacts))
        object["peak_vs_steady"] = Double(peak) / Double(max(1, steady))
        return object
    }

    /// Both figures of a ledger of `contacts` contacts at `path`, written and closed.
    static func figures(ledger path: String, contacts: Int) throws -> [String: Any] {
        ["disk_bytes": diskBytes(ledger: path), "memory": try measureMemoryInChild(path, contacts: contacts)]
    }

    /// A size in `/proc/self/status` (`VmRSS`, `VmHWM`), in bytes; 0 when it cannot be read.
    static func statusBytes(_ field: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
        }
        return 0
    }

    /// Resets the process's peak resident size (`VmHWM`) to its current one, so that the peak
    /// read afterwards is that of what ran in between.
    private static func resetPeak() {
        guard let file = fopen("/proc/self/clear_refs", "w") else { return }
        fputs("5", file)
        fclose(file)
    }
}
