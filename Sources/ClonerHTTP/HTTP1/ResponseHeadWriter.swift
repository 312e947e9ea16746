/// Serialises a response head (status line and header section) into one buffer, so that head
/// and body leave in a single writev: two separate sends would trip Nagle plus delayed ACK and
/// stall each keep-alive response by ~40 ms.
enum ResponseHeadWriter {
    /// What the server says about the connection in this response (RFC 9112 §9.3, §9.6).
    enum ConnectionField {
        case none, keepAlive, close
    }

    /// Fields the server owns: a handler's value would contradict the framing the server writes.
    private static func isServerOwned(_ name: String) -> Bool {
        name.equalsASCIICaseInsensitive("content-length") || name.equalsASCIICaseInsensitive("transfer-encoding")
            || name.equalsASCIICaseInsensitive("connection") || name.equalsASCIICaseInsensitive("date")
            || name.equalsASCIICaseInsensitive("x-request-id")
    }

    /// A handler must not be able to split the response with CR/LF in a field (RFC 9110 §5.5);
    /// such fields are dropped rather than written.
    private static func isSafe(_ text: String) -> Bool {
        !text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }

    static func write(
        status: HTTPStatus, headers: HTTPHeaders, contentLength: Int?, chunked: Bool, date: [UInt8],
        requestID: String, connection: ConnectionField, into bytes: inout [UInt8]
    ) {
        bytes.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(status.code, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: status.reasonPhrase.utf8)
        bytes.append(contentsOf: "\r\n".utf8)
        for field in headers where !isServerOwned(field.name) && isSafe(field.name) && isSafe(field.value) {
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        if let contentLength {
            bytes.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(contentLength, to: &bytes)
            bytes.append(contentsOf: "\r\n".utf8)
        } else if chunked {
            bytes.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8)
        }
        bytes.append(contentsOf: "Date: ".utf8)
        bytes.append(contentsOf: date)
        bytes.append(contentsOf: "\r\n".utf8)
        if !requestID.isEmpty {
            bytes.append(contentsOf: "X-Request-ID: ".utf8)
            bytes.append(contentsOf: requestID.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        switch connection {
        case .none: break
        case .keepAlive: bytes.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        case .close: bytes.append(contentsOf: "Connection: close\r\n".utf8)
        }
        bytes.append(contentsOf: "\r\n".utf8)
    }

    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        precondition(value >= 0, "negative length \(value)")
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }
}
