import COpenSSL

/// A TLS setup failure with the file involved and OpenSSL's own error text.
public struct TLSError: Error, Sendable, CustomStringConvertible {
    public var operation: String
    public var path: String
    public var detail: String

    init(_ operation: String, path: String = "") {
        self.operation = operation
        self.path = path
        self.detail = TLSError.drainErrorQueue()
    }

    public var description: String {
        path.isEmpty ? "\(operation): \(detail)" : "\(operation) \(path): \(detail)"
    }

    /// OpenSSL keeps errors in a per-thread queue; read and clear it so the text belongs to this failure.
    static func drainErrorQueue() -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            let text = buffer.withUnsafeMutableBufferPointer { pointer -> String in
                ERR_error_string_n(code, pointer.baseAddress, pointer.count)
                return String(cString: pointer.baseAddress!)
            }
            messages.append(text)
        }
        return messages.isEmpty ? "unknown OpenSSL error" : messages.joined(separator: "; ")
    }
}
