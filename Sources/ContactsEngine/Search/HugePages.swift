#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Asks the system to back the search indexes' large tables with huge pages (2 MiB on x86-64 and
/// most ARM64 kernels, where a transparent huge page is one translation instead of 512;
/// decision 0040).
///
/// A search through a million contacts reads a few words from each of several tables hundreds
/// of megabytes wide, at addresses no cache has seen: with 4 KiB pages nearly every one of those
/// reads also misses the processor's address translation cache, and in a virtual machine the
/// translation walks two sets of page tables. Linux gives an anonymous mapping huge pages only
/// where the process asks (`madvise(MADV_HUGEPAGE)`) when transparent huge pages are set to
/// `madvise`, as many distributions set them, and only to pages not yet touched; so the advice
/// is given where a large table's storage is allocated, before it is written.
///
/// The advice is a hint: a kernel without transparent huge pages, or set to `never`, refuses or
/// ignores it, and nothing changes but speed. Only whole 2 MiB-aligned pages inside a buffer are
/// advised, so no memory outside it is touched, and a table under ``bytesMin`` is left alone.
enum HugePages {
    /// The size of a huge page: the alignment and granularity of the advice.
    static let pageBytes = 2 << 20
    /// The smallest buffer advised: below it a table holds few huge pages, and a partly used
    /// last page would be a larger share of it.
    static let bytesMin = 8 << 20

    /// Advises huge pages for the whole 2 MiB-aligned pages inside `buffer`, which must be
    /// memory this process allocated and owns; nothing in it is read or written.
    static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
            guard buffer.count >= bytesMin, let base = buffer.baseAddress else { return }
            let start = (UInt(bitPattern: base) + UInt(pageBytes) - 1) & ~UInt(pageBytes - 1)
            let end = (UInt(bitPattern: base) + UInt(buffer.count)) & ~UInt(pageBytes - 1)
            guard end > start, let first = UnsafeMutableRawPointer(bitPattern: start) else { return }
            // A refusal (EINVAL where transparent huge pages are not built in) changes nothing.
            _ = madvise(first, Int(end - start), MADV_HUGEPAGE)
        #endif
    }

    /// Advises huge pages for the storage of `buffer`'s elements.
    static func advise<Element>(_ buffer: UnsafeMutableBufferPointer<Element>) {
        advise(UnsafeMutableRawBufferPointer(buffer))
    }
}

extension Array where Element: BitwiseCopyable {
    /// An array of `count` copies of `value` whose storage is advised huge pages
    /// (``HugePages``) before it is written: a large table's buckets.
    init(hugePagesRepeating value: Element, count: Int) {
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            HugePages.advise(buffer)
            buffer.initialize(repeating: value)
            initialized = count
        }
    }

    /// Advises huge pages (``HugePages``) for this array's storage, its unused capacity
    /// included: called after a large reservation, before the room is written (pages already
    /// written keep their size).
    mutating func adviseHugePages() {
        let capacity = self.capacity
        guard capacity * MemoryLayout<Element>.stride >= HugePages.bytesMin else { return }
        withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // The storage holds `capacity` elements, written or not; only its addresses are used.
            HugePages.advise(UnsafeMutableBufferPointer(start: base, count: capacity))
        }
    }
}
