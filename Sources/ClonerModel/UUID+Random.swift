import Foundation

extension UUID {
    /// A version 4 (random) UUID from the system generator (`getrandom(2)`: one system call).
    /// Foundation's `UUID()` on Linux opens, reads and closes `/dev/urandom` each time — three
    /// system calls and a descriptor per clone job id, seen in `strace` of a clone load.
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        var bytes =
            (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4 (RFC 9562 §5.4)
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // variant 10xx (RFC 9562 §4.1)
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
