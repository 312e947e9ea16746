#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import ClonerHTTP

/// A real server on 127.0.0.1 with an ephemeral port, shut down by `stop()`.
final class TestServer: Sendable {
    let server: HTTPServer
    let port: Int

    init(
        router: Router = TestServer.defaultRouter(), limits: HTTPLimits = HTTPLimits(), loops: Int = 2,
        tls: TLSConfiguration? = nil, hooks: HTTPServer.Hooks = HTTPServer.Hooks(), host: String = "127.0.0.1",
        trustedProxies: TrustedProxies = TrustedProxies(), proxyProtocol: Bool = false
    ) throws {
        server = HTTPServer(
            configuration: .init(
                host: host, port: 0, eventLoopCount: loops, limits: limits, tls: tls,
                trustedProxies: trustedProxies, proxyProtocol: proxyProtocol),
            router: router, hooks: hooks)
        port = try server.start()
    }

    func stop(drainTimeout: Duration = .seconds(5)) {
        server.shutdown(drainTimeout: drainTimeout)
    }

    /// `/hello` (text), `/echo` (POST body back), `/items/{id}` (the id), `/slow` (answers after
    /// 300 ms from another queue), `/fail` (throws).
    static func defaultRouter() -> Router {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        router.post("/echo") { request in
            HTTPResponse(status: .ok, headers: ["Content-Type": "application/octet-stream"], body: request.body)
        }
        router.put("/echo") { request in HTTPResponse(body: request.body) }
        router.get("/items/{id}") { request in .text("item \(request.parameter("id") ?? "?")") }
        router.add(.get, "/slow", deferred: { request, responder in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
                responder.respond(.text("slow \(request.queryValue("n") ?? "")"))
            }
        })
        router.get("/fail") { _ in throw TestFailure() }
        return router
    }
}

struct TestFailure: Error {}

/// A parsed response as a raw client sees it.
struct TestResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking TCP client with a receive timeout, for sending exact bytes.
final class RawClient {
    let fd: Int32
    private var pending: [UInt8] = []

    /// `self.fd` is set only once the socket is connected: a class whose stored properties are
    /// all set runs its `deinit` even when `init` throws, and a second `close` of a number the
    /// process may already have handed to another socket closes that stranger's connection.
    /// `source`: the local address to connect from (any of 127.0.0.0/8 reaches the server), so a
    /// test can be a client the server trusts and one it does not.
    init(port: Int, timeout: Double = 10, source: String? = nil) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket", errno: errno, context: "127.0.0.1:\(port)") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let code = errno
                close(fd)
                throw SocketError("bind", errno: code, context: source)
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
            close(fd)
            throw SocketError("connect", errno: code, context: "127.0.0.1:\(port)")
        }
        self.fd = fd
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
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
        pending.append(contentsOf: chunk[0..<count])
        return true
    }

    private func line() -> String? {
        while true {
            if let index = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[0..<index], as: UTF8.self)
                pending.removeFirst(index + 1)
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            if !fill() { return nil }
        }
    }

    private func bytes(_ count: Int) -> [UInt8]? {
        while pending.count < count { if !fill() { return nil } }
        let result = Array(pending[0..<count])
        pending.removeFirst(count)
        return result
    }

    /// Reads one response (skipping any 1xx unless `informational`); nil if the connection ends first.
    func readResponse(isHead: Bool = false, informational: Bool = false) -> TestResponse? {
        guard let statusLine = line() else { return nil }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        var headers: [(String, String)] = []
        while let field = line(), !field.isEmpty {
            guard let colon = field.firstIndex(of: ":") else { return nil }
            headers.append((String(field[..<colon]), field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = TestResponse(status: status, headers: headers, body: [])
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
    func isClosedByPeer() -> Bool {
        if !pending.isEmpty { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    /// Sends `request`, reads the answer and expects the server to close afterwards.
    func exchange(_ request: String) -> TestResponse? {
        send(request)
        return readResponse()
    }
}

/// Runs blocking work on a Dispatch worker thread, so an async test waiting for it leaves the
/// cooperative pool free for the server's Tasks (streamed bodies, async handlers): on a 2-core
/// machine that pool has two threads, and blocking them from tests would starve the server.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try body() })
        }
    }
}

/// Runs a command and returns its exit status and standard output.
@discardableResult
func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
