extension RequestHead {
    /// The request as wire bytes: request line, header fields as stored, and `body` framed the
    /// way `framing` says (one chunk plus the last chunk for `.chunked`). Parsing the result
    /// gives back an equal head and body, which the round-trip tests and the fuzzer rely on.
    /// The head's headers must already carry the framing fields (`Content-Length` or
    /// `Transfer-Encoding`) that match `framing`.
    public func serialized(body: [UInt8] = []) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + body.count)
        bytes.append(contentsOf: "\(method.rawValue) \(target) \(version)\r\n".utf8)
        for field in headers {
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        bytes.append(contentsOf: "\r\n".utf8)
        switch framing {
        case .none:
            precondition(body.isEmpty, "a body needs Content-Length or chunked framing")
        case .contentLength(let length):
            precondition(length == body.count, "Content-Length \(length) does not match a body of \(body.count) bytes")
            bytes.append(contentsOf: body)
        case .chunked:
            if !body.isEmpty {
                bytes.append(contentsOf: "\(String(body.count, radix: 16))\r\n".utf8)
                bytes.append(contentsOf: body)
                bytes.append(contentsOf: "\r\n".utf8)
            }
            bytes.append(contentsOf: "0\r\n\r\n".utf8)
        }
        return bytes
    }
}
