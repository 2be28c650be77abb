import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A cheap test of whether a record's payload can concern an identifier, which spares decoding
/// the records that cannot: a payload that mentions it holds its text or, for the canonical text
/// of a UUID, the 16 bytes the compact fields write instead.
package enum PayloadSearch {
    /// The byte strings a payload that mentions the identifier holds.
    package static func needles(_ identifier: String) -> [[UInt8]] {
        var needles = [Array(identifier.utf8)]
        if let uuid = UUID(uuidString: identifier), uuid.uuidString == identifier {
            needles.append(withUnsafeBytes(of: uuid.uuid) { Array($0) })
        }
        return needles
    }

    /// Whether a payload holds any of the byte strings.
    package static func mentions(_ payload: [UInt8], _ needles: [[UInt8]]) -> Bool {
        payload.withUnsafeBytes { haystack in
            needles.contains { needle in
                guard !needle.isEmpty, haystack.count >= needle.count, let base = haystack.baseAddress else {
                    return false
                }
                return needle.withUnsafeBytes {
                    find($0, in: UnsafeRawBufferPointer(start: base, count: haystack.count))
                }
            }
        }
    }

    /// Whether `needle` occurs in `haystack`: `memchr` finds each place its first byte occurs,
    /// `memcmp` checks the rest there.
    private static func find(_ needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer) -> Bool {
        guard let start = haystack.baseAddress, let pattern = needle.baseAddress else { return false }
        let first = Int32(needle[0])
        var offset = 0
        let last = haystack.count - needle.count
        while offset <= last {
            guard let hit = memchr(start + offset, first, last - offset + 1) else { return false }
            let position = UnsafeRawPointer(hit) - start
            if memcmp(hit, pattern, needle.count) == 0 { return true }
            offset = position + 1
        }
        return false
    }
}
