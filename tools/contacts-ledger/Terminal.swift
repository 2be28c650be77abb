import ContactsLedger
import Foundation
import LedgerStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the tool writes: standard output for data, standard error for failures and progress.
///
/// Output is written with `write(2)` as soon as a command asks, never held in a stdio buffer,
/// so that a line a write command printed after its record was on disk is really out even if
/// the process is killed right after.
enum Terminal {
    /// Whether standard output is a terminal.
    static let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    /// Whether standard error is a terminal.
    static let stderrIsTerminal = isatty(STDERR_FILENO) == 1

    /// Whether colour may be used on standard output: it is a terminal, `NO_COLOR` is unset or
    /// empty (https://no-color.org), and `TERM` is not `dumb`.
    static let colourOnStdout = stdoutIsTerminal && colourAllowed

    private static var colourAllowed: Bool {
        let environment = ProcessInfo.processInfo.environment
        return (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// Whether a progress bar may be drawn: standard error is a terminal that is not `dumb`.
    static let progressAllowed = stderrIsTerminal && ProcessInfo.processInfo.environment["TERM"] != "dumb"

    /// Writes all of `text` to a descriptor, retrying short writes and EINTR; a failure (a
    /// closed pipe) leaves the rest unwritten.
    private static func writeAll(_ descriptor: Int32, _ text: String) {
        try? StreamOutput.writeAll(Array(text.utf8), to: descriptor)
    }

    /// Prints a line on standard output.
    static func line(_ text: String = "") {
        writeAll(STDOUT_FILENO, text + "\n")
    }

    /// Prints text on standard output as it is.
    static func output(_ text: String) {
        writeAll(STDOUT_FILENO, text)
    }

    /// Prints lines on standard output in one write.
    static func lines(_ texts: [String]) {
        guard !texts.isEmpty else { return }
        writeAll(STDOUT_FILENO, texts.joined(separator: "\n") + "\n")
    }

    /// Prints a JSON value on one line of standard output.
    static func json(_ value: JSONValue) {
        line(value.serialized())
    }

    /// Prints `contacts-ledger: text` on standard error.
    static func error(_ text: String) {
        writeAll(STDERR_FILENO, "contacts-ledger: " + text + "\n")
    }

    /// Prints a line on standard error as it is.
    static func errorLine(_ text: String) {
        writeAll(STDERR_FILENO, text + "\n")
    }

    /// Draws on standard error without a newline (progress bars).
    static func draw(_ text: String) {
        writeAll(STDERR_FILENO, text)
    }

    /// Text in bold yellow when colour is allowed on standard output (headers, like `git log`).
    static func highlight(_ text: String) -> String {
        colourOnStdout ? "\u{1B}[33m" + text + "\u{1B}[0m" : text
    }

    /// Text in green when colour is allowed on standard output.
    static func good(_ text: String) -> String {
        colourOnStdout ? "\u{1B}[32m" + text + "\u{1B}[0m" : text
    }
}

/// Shows on standard error that long work is under way, only when standard error is a terminal
/// (`TERM` not `dumb`); when it is not, nothing extra is written.
enum ProgressBar {}

extension ProgressBar {
    /// Runs `work` and, when it takes longer than a moment and standard error is a terminal, shows
    /// the label with the elapsed time until it is done.
    ///
    /// The library's long operations (verify, replay, restore, recover) report no progress, so this
    /// shows that the tool is working rather than how far it is.
    static func whileRunning<Result>(_ label: String, _ work: () throws -> Result) rethrows -> Result {
        guard Terminal.progressAllowed else { return try work() }
        let ticker = Ticker(label: label)
        let thread = Thread { ticker.run() }
        thread.start()
        defer { ticker.stop() }
        return try work()
    }

    /// Redraws the elapsed time every tenth of a second, after the first half second.
    private final class Ticker: @unchecked Sendable {
        // Thread-safety: `stopped` is guarded by `condition`; drawing happens on the ticker's thread
        // only, and `stop` waits until the ticker has cleared its line.
        private let condition = NSCondition()
        private var stopped = false
        private var finished = false
        private let label: String

        init(label: String) { self.label = label }

        func run() {
            let start = Date()
            condition.lock()
            var drawn = false
            while !stopped {
                _ = condition.wait(until: Date().addingTimeInterval(drawn ? 0.1 : 0.5))
                if stopped { break }
                drawn = true
                Terminal.draw(String(format: "\r%@ … %.1fs\u{1B}[K", label, Date().timeIntervalSince(start)))
            }
            if drawn { Terminal.draw("\r\u{1B}[K") }
            finished = true
            condition.broadcast()
            condition.unlock()
        }

        func stop() {
            condition.lock()
            stopped = true
            condition.broadcast()
            while !finished { condition.wait() }
            condition.unlock()
        }
    }
}

extension ProgressBar {
    /// Draws a bar for work whose size is known, such as an import's cards, on standard error
    /// when it is a terminal; `finish()` clears it.
    struct Counter {
        let label: String
        private var lastDrawn = -1

        init(label: String) { self.label = label }

        /// Redraws the bar for `done` of `total`, at most once per percent.
        mutating func update(done: Int, total: Int) {
            guard Terminal.progressAllowed, total > 0 else { return }
            let percent = min(100, done * 100 / total)
            guard percent != lastDrawn else { return }
            lastDrawn = percent
            let width = 30
            let filled = width * percent / 100
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            Terminal.draw("\r\(label) [\(bar)] \(percent)% (\(done)/\(total))\u{1B}[K")
        }

        /// Clears the bar's line, if one was drawn.
        func finish() {
            if lastDrawn >= 0 { Terminal.draw("\r\u{1B}[K") }
        }
    }
}

extension ProgressBar {
    /// Runs `work`, handing it a progress callback that draws a bar on standard error when it is a
    /// terminal, and clears the bar when the work is done.
    static func counting<Result>(
        _ label: String, _ work: (_ progress: @escaping (UInt64, UInt64) -> Void) throws -> Result
    ) rethrows -> Result {
        let counter = CounterBox(Counter(label: label))
        defer { counter.counter.finish() }
        return try work { done, total in counter.counter.update(done: Int(done), total: Int(total)) }
    }

    /// A counter the progress callback can update.
    private final class CounterBox {
        var counter: Counter
        init(_ counter: Counter) { self.counter = counter }
    }
}
