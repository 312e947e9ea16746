import Foundation

/// A port for a server a test starts itself (haproxy, a formation's nodes).
package enum FreePort {
    /// A TCP port nothing is bound to on any address, from below Linux's ephemeral range so that
    /// outgoing connections do not take it meanwhile.
    package static func take() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_000)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = INADDR_ANY
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound == 0 { return port }
        }
        throw ChildProcess.Failure(description: "no free port found in 20000-31999")
    }
}
