import ClonerConcurrency
import Synchronization
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One blocking TCP connection to a server on 127.0.0.1, with send and receive timeouts so that
/// no test can hang on a silent server. A raw socket rather than URLSession: the tests control
/// every byte (a partial request head held open across a shutdown, a missing Content-Type, exact
/// header values, pipelined requests) and see every byte of the answer.
///
/// Read it one response at a time (`readResponse`) or to the end (`receiveToEnd`); a client is
/// shared between a test and the thread it reads on, so the unread bytes sit behind a lock.
package final class RawClient: Sendable {
    package let fd: Int32
    private let pending = LockedValue<[UInt8]>([])
    private let closed = Atomic<Bool>(false)

    /// `self.fd` is set only once the socket is connected: a class whose stored properties are
    /// all set runs its `deinit` even when `init` throws, and a second `close` of a number the
    /// process may already have handed to another socket closes that stranger's connection.
    /// `source`: the local address to connect from (any of 127.0.0.0/8 reaches the server), so a
    /// test can be a client the server trusts and one it does not. `receiveBuffer`: the socket's
    /// receive buffer, set before connecting so the window it offers stays that small — a client
    /// that does not read then makes the server's writes block after a few kilobytes.
    package init(port: Int, timeout: Double = 10, source: String? = nil, receiveBuffer: Int32? = nil) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError("socket() for 127.0.0.1:\(port) failed: errno \(errno)") }
        if var receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let code = errno
                Glibc.close(fd)
                throw ClientError("bind to \(source) failed: errno \(code)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw ClientError("connect to 127.0.0.1:\(port) failed: errno \(code)")
        }
        self.fd = fd
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close() }

    /// Closes once, however often it is called.
    package func close() {
        if !closed.exchange(true, ordering: .acquiringAndReleasing) { Glibc.close(fd) }
    }

    package func send(_ text: String) { send(Array(text.utf8)) }

    /// Sends what the peer takes; a peer that closed or stopped reading ends it early, which the
    /// answer (or its absence) then shows.
    package func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Reads more bytes; false on EOF, error or timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count <= 0 { return false }
        pending.withLock { $0.append(contentsOf: chunk[0..<count]) }
        return true
    }

    private func line() -> String? {
        while true {
            let line: String? = pending.withLock { pending in
                guard let index = pending.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                let line = String(decoding: pending[0..<index], as: UTF8.self)
                pending.removeFirst(index + 1)
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            if let line { return line }
            if !fill() { return nil }
        }
    }

    private func bytes(_ count: Int) -> [UInt8]? {
        while pending.withLock({ $0.count }) < count { if !fill() { return nil } }
        return pending.withLock { pending in
            let result = Array(pending[0..<count])
            pending.removeFirst(count)
            return result
        }
    }

    /// Reads one Content-Length-framed response (skipping any 1xx unless `informational`); nil if
    /// the connection ends first.
    package func readResponse(isHead: Bool = false, informational: Bool = false) -> RawResponse? {
        guard let statusLine = line() else { return nil }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        var headers: [(String, String)] = []
        while let field = line(), !field.isEmpty {
            guard let colon = field.firstIndex(of: ":") else { return nil }
            headers.append((String(field[..<colon]), field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = RawResponse(status: status, headers: headers, body: [])
        if status < 200 {
            return informational ? response : readResponse(isHead: isHead)
        }
        if isHead || status == 204 || status == 304 { return response }
        if let length = response.header("content-length").flatMap(Int.init) {
            guard let body = bytes(length) else { return nil }
            response.body = body
        }
        return response
    }

    /// True when the server closed the connection (EOF) within the receive timeout, with no
    /// further response bytes.
    package func isClosedByPeer() -> Bool {
        if !pending.withLock({ $0.isEmpty }) { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    /// Sends `request`, reads the answer and expects the server to close afterwards.
    package func exchange(_ request: String) -> RawResponse? {
        send(request)
        return readResponse()
    }

    /// Every byte the server sends until it closes the connection (ask for `Connection: close`),
    /// or a timeout error.
    package func receiveToEnd() throws -> [UInt8] {
        var received = pending.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return received }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET && !received.isEmpty { return received }
                throw ClientError("recv failed after \(received.count) bytes: errno \(errno)")
            }
            received.append(contentsOf: chunk[0..<count])
        }
    }

    /// What one read returns: the bytes that have arrived (waiting for some up to the timeout),
    /// empty once the server has closed. For a stream read as it comes (server-sent events).
    package func receiveSome() throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return Array(chunk[0..<count]) }
            if errno != EINTR { throw ClientError("recv failed: errno \(errno)") }
        }
    }

    /// `receiveToEnd` on a thread of its own (see `Blocking`).
    package func receive() async throws -> [UInt8] {
        try await Blocking.run { try self.receiveToEnd() }
    }

    /// `readResponse` on a thread of its own (see `Blocking`); an error if the connection ends first.
    package func response() async throws -> RawResponse {
        try await Blocking.run {
            guard let response = self.readResponse() else { throw ClientError("the connection ended before a whole response") }
            return response
        }
    }
}

/// A response as `RawClient.readResponse` read it off the wire.
package struct RawResponse: Sendable {
    package var status: Int
    package var headers: [(String, String)]
    package var body: [UInt8]

    package init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    package var text: String { String(decoding: body, as: UTF8.self) }
}
