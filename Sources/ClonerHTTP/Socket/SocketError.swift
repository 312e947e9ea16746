#if canImport(Glibc)
import Glibc
#endif

/// A failed socket system call, with the call, the errno and what it was about
/// (`bind 127.0.0.1:8080: Address already in use`).
public struct SocketError: Error, Sendable, CustomStringConvertible {
    public var operation: String
    public var errno: Int32
    public var context: String

    public init(_ operation: String, errno: Int32, context: String = "") {
        self.operation = operation
        self.errno = errno
        self.context = context
    }

    public var description: String {
        // Said plainly for the one an operator meets most: another process serves the port.
        let message =
            errno == EADDRINUSE
            ? "address in use (another process listens there)" : String(cString: strerror(errno))
        return context.isEmpty ? "\(operation): \(message)" : "\(operation) \(context): \(message)"
    }
}
