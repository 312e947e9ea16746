#if canImport(Glibc)
import Glibc
#endif

/// Formatting of peer addresses for logs and `HTTPRequest.remoteAddress`.
enum SocketAddress {
    static func port(of address: UnsafePointer<sockaddr>) -> Int {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
        default:
            return 0
        }
    }

    /// `127.0.0.1:5123` or `[::1]:5123`.
    static func describe(_ address: UnsafePointer<sockaddr>) -> String {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var addr = inet.pointee.sin_addr
                return "\(text(AF_INET, &addr)):\(UInt16(bigEndian: inet.pointee.sin_port))"
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet in
                var addr = inet.pointee.sin6_addr
                return "[\(text(AF_INET6, &addr))]:\(UInt16(bigEndian: inet.pointee.sin6_port))"
            }
        default:
            return "unknown"
        }
    }

    /// The address without the port (`127.0.0.1`, `::1`): what the per-client connection limit counts.
    static func host(_ address: UnsafePointer<sockaddr>) -> String {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var addr = inet.pointee.sin_addr
                return text(AF_INET, &addr)
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet in
                var addr = inet.pointee.sin6_addr
                return text(AF_INET6, &addr)
            }
        default:
            return "unknown"
        }
    }

    private static func text(_ family: Int32, _ address: UnsafeRawPointer) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { buffer in
            guard let result = inet_ntop(family, address, buffer.baseAddress, socklen_t(buffer.count)) else { return "?" }
            return String(cString: result)
        }
    }
}
