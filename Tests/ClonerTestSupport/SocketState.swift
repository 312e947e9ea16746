import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the kernel knows about a test's connections, for waiting on a socket's state rather than
/// for a fixed time: whether the server has read what a client sent, whether a peer has closed.
package enum SocketState {
    /// The bytes sent on the TCP connection `descriptor` (a client's end, on 127.0.0.0/8) that
    /// the server has not read yet: those still unacknowledged at this end plus those waiting in
    /// the receive queue of the server's end, as `/proc/net/tcp` lists them (the server runs in
    /// this network namespace, in this process or a child). Nil when either end is not listed as
    /// established.
    package static func bytesUnreadByPeer(_ descriptor: Int32) -> Int? {
        guard let local = address(of: descriptor, peer: false), let remote = address(of: descriptor, peer: true),
            let table = procFile("/proc/net/tcp")
        else { return nil }
        var unsent: Int?
        var unread: Int?
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            // Established connections only: an earlier one's TIME_WAIT entry may name the same ports.
            guard fields.count > 4, fields[3] == "01" else { continue }
            let queues = fields[4].split(separator: ":")
            guard queues.count == 2, let transmit = Int(queues[0], radix: 16), let receive = Int(queues[1], radix: 16) else { continue }
            if fields[1] == local && fields[2] == remote { unsent = transmit }
            if fields[1] == remote && fields[2] == local { unread = receive }
        }
        guard let unsent, let unread else { return nil }
        return unsent + unread
    }

    /// Whether the peer of the stream socket `descriptor` has closed its end (or shut down its
    /// writing), even with bytes it sent before still unread here (`POLLRDHUP`). Reads nothing.
    package static func isClosedByPeer(_ descriptor: Int32) -> Bool {
        // POLLRDHUP (Linux), which the Glibc module leaves out without _GNU_SOURCE.
        let readHangUp: Int16 = 0x2000
        var entry = pollfd(fd: descriptor, events: readHangUp, revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return false }
        return entry.revents & (readHangUp | Int16(POLLHUP)) != 0
    }

    /// A file of /proc, read to its end: it reports a size of zero, which `String(contentsOfFile:)`
    /// takes at its word.
    private static func procFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// A socket's own (`peer: false`) or its peer's IPv4 address as `/proc/net/tcp` writes it:
    /// `0100007F:1F90` for 127.0.0.1:8080 (the address in memory order, the port in host order).
    private static func address(of descriptor: Int32, peer: Bool) -> Substring? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(descriptor, $0, &length) : getsockname(descriptor, $0, &length)
            }
        }
        guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return Substring(String(format: "%08X:%04X", address.sin_addr.s_addr, UInt16(bigEndian: address.sin_port)))
    }
}

extension RawClient {
    /// Whether the server has read every byte this client sent (`SocketState.bytesUnreadByPeer`).
    package var serverHasReadEverything: Bool { SocketState.bytesUnreadByPeer(fd) == 0 }
}
