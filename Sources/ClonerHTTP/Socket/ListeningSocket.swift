#if canImport(Glibc)
import Glibc
#endif

/// A bound, listening, non-blocking TCP socket: one per server, which every event loop watches
/// with EPOLLEXCLUSIVE (one loop woken per new connection, no thundering herd).
///
/// No SO_REUSEPORT: with it a second process could bind the same port and the kernel would split
/// connections between two services with different databases (docs/architecture.md#limits-and-admission). Without it a
/// second bind fails with EADDRINUSE. SO_REUSEADDR stays, so a restart can bind while the old
/// process's connections are in TIME_WAIT; on Linux it never lets two listeners share a port.
enum ListeningSocket {
    /// Binds `host:port` (IPv4 or IPv6 literal or name; port 0 picks an ephemeral port) and
    /// returns the descriptor and the port actually bound.
    static func open(host: String, port: Int, backlog: Int32) throws(SocketError) -> (fd: Int32, port: Int) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let info = list else {
            throw SocketError("getaddrinfo", errno: EADDRNOTAVAIL, context: "\(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }

        let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket", errno: errno, context: host) }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let code = errno
            close(fd)
            throw SocketError("bind", errno: code, context: "\(host):\(port)")
        }
        guard listen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw SocketError("listen", errno: code, context: "\(host):\(port)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let boundPort = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Int in
                getsockname(fd, address, &length)
                return SocketAddress.port(of: address)
            }
        }
        return (fd, boundPort)
    }
}
