import Foundation
import Testing

@testable import ContactsEngine

#if canImport(Glibc)
    import Glibc
#endif

/// The huge-page advice of the large tables (decision 0040): arrays made or reserved with it
/// hold what they would without it, and on Linux the kernel records the advice on the memory of
/// a large one (the `hg` flag of its mapping in `/proc/self/smaps`) and on none outside it.
@Suite struct HugePagesTests {
    /// A size well above ``HugePages/bytesMin``, in 64-bit elements.
    static let largeCount = 3 * HugePages.bytesMin / 8

    @Test func anArrayMadeWithTheAdviceHoldsItsValues() {
        for count in [0, 1, 1000, Self.largeCount] {
            let array = [UInt64](hugePagesRepeating: 7, count: count)
            #expect(array.count == count)
            #expect(array.allSatisfy { $0 == 7 })
        }
        let heads = [UInt32](hugePagesRepeating: .max, count: Self.largeCount)
        #expect(heads.allSatisfy { $0 == .max })
    }

    @Test func adviceKeepsAnArraysElementsAndCapacity() {
        var array = (0..<UInt32(1000)).map { $0 * 3 }
        array.reserveCapacity(Self.largeCount)
        let capacity = array.capacity
        array.adviseHugePages()
        #expect(array.capacity == capacity)
        #expect(array == (0..<UInt32(1000)).map { $0 * 3 })
        array.append(contentsOf: repeatElement(9, count: Self.largeCount - 1000))
        #expect(array.count == Self.largeCount)
        #expect(array[999] == 2997 && array[1000] == 9 && array.last == 9)
    }

    @Test func aTrimmedLargeArrayKeepsItsElements() {
        var array = [UInt64]()
        array.reserveCapacity(Self.largeCount * 2)
        array.append(contentsOf: (0..<UInt64(Self.largeCount)).lazy.map { $0 &* 0x9E37_79B9 })
        array.trimExcessCapacity()
        #expect(array.capacity < Self.largeCount * 2)
        #expect(array.elementsEqual((0..<UInt64(Self.largeCount)).lazy.map { $0 &* 0x9E37_79B9 }))
    }

    #if os(Linux)
        @Test func theKernelRecordsTheAdviceOnALargeArray() throws {
            let large = [UInt64](hugePagesRepeating: 1, count: Self.largeCount)
            let address = large.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress!) }
            // The middle of the array lies in a whole aligned huge page, which is advised.
            let flags = try #require(try Self.mappingFlags(containing: address + UInt(Self.largeCount * 8 / 2)))
            #expect(
                flags.contains("hg"),
                "the kernel did not record MADV_HUGEPAGE (is transparent huge page support built in?)")
            withExtendedLifetime(large) {}
        }

        /// Only whole aligned huge pages inside a buffer are advised, and no buffer under
        /// ``HugePages/bytesMin``: checked on fresh mappings of this test's own.
        @Test func onlyWholeAlignedPagesOfALargeBufferAreAdvised() throws {
            let page = HugePages.pageBytes
            let length = 6 * page
            let mapped = try #require(
                mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
            try #require(mapped != MAP_FAILED)
            defer { munmap(mapped, length) }
            let base = UInt(bitPattern: mapped)
            let aligned = (base + UInt(page) - 1) & ~UInt(page - 1)
            // A buffer from 4 KiB before an aligned page to 4 KiB past the end of the next
            // four: those four are advised, the partial pages at both ends are not.
            let start = aligned + UInt(page) - 4096
            let advised = UnsafeMutableRawBufferPointer(
                start: UnsafeMutableRawPointer(bitPattern: start), count: 4 * page + 8192)
            HugePages.advise(advised)
            #expect(try Self.mappingFlags(containing: start)?.contains("hg") == false)
            #expect(try Self.mappingFlags(containing: start + 4096)?.contains("hg") == true)
            #expect(try Self.mappingFlags(containing: start + 4096 + UInt(4 * page) - 1)?.contains("hg") == true)
            #expect(try Self.mappingFlags(containing: start + 4096 + UInt(4 * page))?.contains("hg") == false)

            // A fresh mapping just under the smallest size advised is left alone.
            let smallLength = HugePages.bytesMin - 4096
            let small = try #require(
                mmap(nil, smallLength, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0))
            try #require(small != MAP_FAILED)
            defer { munmap(small, smallLength) }
            HugePages.advise(UnsafeMutableRawBufferPointer(start: small, count: smallLength))
            let smallMiddle = UInt(bitPattern: small) + UInt(smallLength / 2)
            #expect(try Self.mappingFlags(containing: smallMiddle)?.contains("hg") == false)
        }

        /// The `VmFlags` of the mapping of this process that contains `address`, from
        /// `/proc/self/smaps`.
        static func mappingFlags(containing address: UInt) throws -> [Substring]? {
            // Read to its end: the file's size is given as zero.
            let file = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
            let smaps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
            var inside = false
            for line in smaps.split(separator: "\n") {
                if let range = line.split(separator: " ").first, range.contains("-"),
                    let bounds = Optional(range.split(separator: "-")), bounds.count == 2,
                    let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16)
                {
                    inside = start <= address && address < end
                } else if inside, line.hasPrefix("VmFlags:") {
                    return line.dropFirst("VmFlags:".count).split(separator: " ")
                }
            }
            return nil
        }
    #endif
}
