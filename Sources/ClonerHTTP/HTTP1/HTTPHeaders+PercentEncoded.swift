/// Header values as a generated client may send them. swift-openapi-generator's runtime writes
/// every header parameter as a URI component (`simple` style), so `If-None-Match: "3"` leaves it as
/// `%223%22`, `Prefer: respond-async, wait=5` as `respond-async%2C%20wait%3D5` and `Range:
/// bytes=0-3` as `bytes%3D0-3`. The fields a client sets as parameters (`ClientHeaderField`) are
/// read here only, and alike: a value in that form — only RFC 3986 unreserved characters (§2.3)
/// and `%XX` escapes (§2.1), at least one escape — is read decoded, any other as written. No
/// entity tag (those need `"` or are `*`), range (`=`), preference the service acts on, or
/// acceptable request id (`%` is not among its characters) has that form as written, so decoding
/// cannot change what another client's value means. An `Idempotency-Key` is opaque, so there the
/// form is taken for what it is, an encoding: `order%2042%2Fa` from a generated client and
/// `order 42/a` from curl are one key, and a retry through either replays the first answer (a
/// client that means a literal `%20` in a key sends the key `a b` for `a%20b`).
extension HTTPHeaders {
    /// The first value of `field`, in its canonical form: percent-decoded when it has the
    /// percent-encoded form.
    public func clientValue(_ field: ClientHeaderField) -> String? {
        self[field.name].map(Self.decodingPercentEncodedForm)
    }

    /// `containsToken(_:in:)` over the values of `field`, each in its canonical form.
    public func containsClientToken(_ token: String, in field: ClientHeaderField) -> Bool {
        for value in values(field.name) {
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
