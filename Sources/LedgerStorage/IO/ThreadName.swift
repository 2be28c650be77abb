import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Naming the calling thread where the system shows it.
public enum ThreadName {
    /// Names the calling thread as `top`, `perf`, debuggers and `/proc/thread-self/comm` show
    /// it, cut to the 15 bytes Linux keeps. A thread names itself, from within, by writing its
    /// `comm` file (proc(5)): Foundation's `Thread.current.name`, set at a new thread's start,
    /// can be lost, the thread keeping the name of the one that made it.
    public static func setCurrent(_ name: String) {
        #if canImport(Glibc)
            let bytes = Array(name.utf8.prefix(15))
            let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            if file >= 0 {
                let written = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
                close(file)
                if written == bytes.count { return }
            }
        #endif
        Thread.current.name = name
    }
}
