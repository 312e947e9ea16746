/// Header values as a generated client may send them. swift-openapi-generator's runtime writes
/// every header parameter as a URI component (`simple` style), so `If-None-Match: "3"` leaves it as
/// `%223%22` and `Prefer: respond-async, wait=5` as `respond-async%2C%20wait%3D5`. A value in that
/// form — only RFC 3986 unreserved characters (§2.3) and `%XX` escapes (§2.1), at least one escape —
/// holds no entity tag (those need `"` or are `*`), no preference the service acts on, and no
/// acceptable request id (`%` is not among its characters) as written, so for those fields reading
/// it decoded cannot change what a value some other client sent means to the service. Fields whose
/// values are opaque (`Idempotency-Key`) must not be read this way: there `a%3Ab` and `a:b` are two
/// keys a client may both use.
extension HTTPHeaders {
    /// The first value of `name`, percent-decoded when it has the percent-encoded form.
    public func percentDecodedValue(_ name: String) -> String? {
        self[name].map(Self.decodingPercentEncodedForm)
    }

    /// `containsToken(_:in:)` over the values of `name`, each decoded when percent-encoded.
    public func containsPercentDecodedToken(_ token: String, in name: String) -> Bool {
        for value in values(name) {
            for element in Self.decodingPercentEncodedForm(value).split(separator: ",") {
                if element.trimmingOWS().equalsASCIICaseInsensitive(token) { return true }
            }
        }
        return false
    }

    /// `value` decoded when it is made only of unreserved characters and escapes, with at least one
    /// escape and every `%` starting a valid one; otherwise `value` as written. A decoded value that
    /// is not UTF-8 is kept as written too.
    static func decodingPercentEncodedForm(_ value: String) -> String {
        let utf8 = Array(value.utf8)
        var index = 0
        var escapes = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < utf8.count, isHexDigit(utf8[index + 1]), isHexDigit(utf8[index + 2]) else { return value }
                escapes += 1
                index += 3
                continue
            }
            guard isUnreserved(byte) else { return value }
            index += 1
        }
        guard escapes > 0 else { return value }
        let decoded = PercentDecoding.decode(Substring(value), plusIsSpace: false)
        // `String(decoding:)` inside the decoder repairs invalid UTF-8 with U+FFFD; such a value was
        // not text the client meant, so it is left as it came.
        guard !decoded.unicodeScalars.contains("\u{FFFD}") else { return value }
        return decoded
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    /// RFC 3986 §2.3: `ALPHA / DIGIT / "-" / "." / "_" / "~"`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
