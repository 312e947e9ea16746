/// The `X-Request-ID` of a request (DESIGN.md §5): the client's when it is safe to echo and log,
/// otherwise a fresh random one.
///
/// A client value is accepted only if it is 1–200 visible ASCII characters: it is echoed in a
/// header and written into the JSON access log and problem bodies, so control characters or
/// unbounded length would allow header or log injection.
public enum RequestID {
    public static let headerName = "X-Request-ID"
    public static let maximumLength = 200

    /// The client's ID if acceptable, else a generated one.
    public static func resolve(_ clientValue: String?) -> String {
        if let clientValue, isAcceptable(clientValue) { return clientValue }
        return generate()
    }

    public static func isAcceptable(_ value: String) -> Bool {
        let utf8 = value.utf8
        guard !utf8.isEmpty, utf8.count <= maximumLength else { return false }
        // RFC 9110 §5.5 field-vchar without obs-text: visible ASCII, 0x21–0x7E.
        return utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// 128 random bits as 32 lower-case hex digits (the system CSPRNG; IDs must not be guessable
    /// when they end up in URLs of support tickets).
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64, low = generator.next() as UInt64
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for word in [high, low] {
            for shift in stride(from: 60, through: 0, by: -4) {
                bytes.append(hexDigits[Int((word >> UInt64(shift)) & 0xF)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
