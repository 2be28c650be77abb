#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writing to a descriptor at its current position (standard output or error, a pipe), where
/// the file layer's positioned writes cannot go.
public enum StreamOutput {
    /// Writes all of `bytes` to `descriptor` with `write(2)`, at once rather than through a
    /// stdio buffer, looping over short writes and retrying `EINTR`; any other failure stops it
    /// and is thrown.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws(StorageError) {
        let failure: Int32? = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure {
            throw StorageError.system(operation: "write", path: "(descriptor \(descriptor))", errno: failure)
        }
    }
}
