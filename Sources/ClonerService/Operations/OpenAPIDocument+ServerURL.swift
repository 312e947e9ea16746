import ClonerHTTP

/// The `servers` URL of the served document: the address the client fetched it from, so a client
/// generated from it talks to this deployment (a fixed `127.0.0.1:8080` is right on one machine
/// only). The `Host` field is the client's own text, and the document is code for generators: it
/// goes into the URL only when it is a plain host with an optional port, never as written.
extension OpenAPIDocument {
    /// The served document split once at its `servers` URL, which each answer fills in.
    struct ServerURLSlot: Sendable {
        let head: [UInt8]
        let tail: [UInt8]

        /// `document` holds `servers:` followed by one `  - url: …` line (the template's layout; a
        /// template without it is a programmer mistake the document's tests catch).
        init(document: [UInt8]) {
            let marker = Array("\nservers:\n  - url: ".utf8)
            guard let start = document.firstRange(of: marker)?.upperBound,
                let end = document[start...].firstIndex(of: UInt8(ascii: "\n"))
            else {
                preconditionFailure("openapi.yaml lost its `servers:` / `  - url:` lines")
            }
            head = Array(document[..<start])
            tail = Array(document[end...])
        }

        func document(serverURL: String) -> [UInt8] {
            head + Array(serverURL.utf8) + tail
        }
    }

    /// `http://` or `https://` (as the connection is) and the request's `Host`; a relative `/` when
    /// the field is missing or not a plain `host[:port]` (RFC 9110 §7.2, RFC 3986 §3.2.2–3.2.3).
    static func serverURL(for request: HTTPRequest) -> String {
        guard let host = request.headers["Host"], isPlainAuthority(host) else { return "/" }
        return (request.isSecure ? "https://" : "http://") + host
    }

    /// A DNS name or IPv4 address (letters, digits, `.`, `-`), or an IPv6 literal in brackets (hex
    /// digits, `:`, `.`), then an optional port of 1–5 digits. Nothing a YAML scalar, a URL or
    /// generated source code could read as more than an address.
    static func isPlainAuthority(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard !bytes.isEmpty, bytes.count <= 262 else { return false }
        var index = 0
        if bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1 else { return false }
            guard bytes[1..<close].allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else { return false }
            index = close + 1
        } else {
            let end = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
            guard end > 0, end <= 253, bytes[0] != UInt8(ascii: "-"), bytes[0] != UInt8(ascii: "."),
                bytes[..<end].allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") })
            else { return false }
            index = end
        }
        guard index < bytes.count else { return true }
        guard bytes[index] == UInt8(ascii: ":") else { return false }
        let port = bytes[(index + 1)...]
        return (1...5).contains(port.count) && port.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte)
            && ((UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20))
    }
}
