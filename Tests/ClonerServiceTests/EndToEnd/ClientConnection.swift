import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One blocking TCP connection to the service on 127.0.0.1, with a receive timeout so that no
/// test can hang on a silent server. A raw socket rather than URLSession: the end-to-end tests
/// must control every byte (a partial request head held open across SIGTERM, a missing
/// Content-Type, exact header values) and see every byte of the answer.
final class ClientConnection: Sendable {
    let descriptor: Int32
    private let closed = Atomic<Bool>(false)

    init(port: Int, timeoutSeconds: Int = 60) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError("socket() failed: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(fd)
            throw ClientError("connect to 127.0.0.1:\(port) failed: errno \(code)")
        }
        descriptor = fd
    }

    deinit { close() }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw ClientError("send failed at byte \(offset) of \(bytes.count): errno \(errno)") }
            offset += written
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// `receiveToEnd` on a thread of its own (see `Blocking`).
    func receive() async throws -> [UInt8] {
        try await Blocking.run { try self.receiveToEnd() }
    }

    /// `receive` parsed as one response.
    func receiveResponse() async throws -> ClientResponse {
        try ClientResponse.parse(try await receive()).response
    }

    /// Everything the server sends until it closes the connection (the tests ask for
    /// `Connection: close`), or a timeout error.
    func receiveToEnd() throws -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return received }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET && !received.isEmpty { return received }
                throw ClientError("recv failed after \(received.count) bytes: errno \(errno)")
            }
            received.append(contentsOf: chunk[0..<count])
        }
    }

    /// Closes once, however often it is called.
    func close() {
        if !closed.exchange(true, ordering: .acquiringAndReleasing) { Glibc.close(descriptor) }
    }
}
