/// The client address a request's forwarding fields give — `Forwarded` (RFC 7239) or, when that
/// is absent, `X-Forwarded-For` — believed only as far as trusted proxies vouch for it.
///
/// Each proxy appends the address it received the request from, so the list reads client first,
/// nearest proxy last, and only the entries added by trusted proxies are honest: anything left of
/// them may be whatever the client wrote. Walking from the right, the first address that is not
/// itself a trusted proxy is the client (RFC 7239 §4 and §7.1 on the order; §8.1 on trusting it). When
/// every address is a trusted proxy, the left-most is the client. An entry that names no address
/// (`unknown`, an obfuscated `_identifier`, RFC 7239 §6.2–6.3, or text that is no address) ends the
/// walk: the nearest trusted proxy did not say who sent to it, so the last address read stands.
public enum ForwardedClient {
    /// One hop of the list.
    enum Hop: Equatable {
        case address(IPAddress)
        /// A hop that names no usable address.
        case unnamed
    }

    /// The client address, when `peer` (the address the request came from: the connection's
    /// peer, or the client a trusted proxy's PROXY header named) is a trusted proxy and sent at
    /// least one forwarding entry; nil otherwise (the peer itself is the client).
    public static func client(in headers: HTTPHeaders, peer: IPAddress, trusted: TrustedProxies) -> IPAddress? {
        guard !trusted.isEmpty, trusted.contains(peer) else { return nil }
        let forwarded = headers.values("forwarded")
        let hops: [Hop]
        if !forwarded.isEmpty {
            hops = forwarded.flatMap { forwardedHops($0) }
        } else {
            let forwardedFor = headers.values("x-forwarded-for")
            if forwardedFor.isEmpty { return nil }
            hops = forwardedFor.flatMap { forwardedForHops($0) }
        }
        var client: IPAddress?
        for hop in hops.reversed() {
            guard case .address(let address) = hop else { break }
            client = address
            if !trusted.contains(address) { break }
        }
        return client
    }

    // MARK: Forwarded (RFC 7239 §4)

    /// The `for=` node of each forwarded-element of one field value: elements are separated by
    /// commas, their pairs by semicolons, a value is a token or a quoted-string (RFC 7239 §4,
    /// RFC 9110 §5.6.4). An element without `for` names no client.
    static func forwardedHops(_ value: String) -> [Hop] {
        var hops: [Hop] = []
        var forValue: String?
        var pair = ""
        var inQuotes = false
        var escaped = false
        var sawAny = false

        func endPair() {
            let trimmed = pair.trimmingOWS()
            if let equals = trimmed.firstIndex(of: "=") {
                let name = trimmed[..<equals]
                if name.equalsASCIICaseInsensitive("for") && forValue == nil {
                    forValue = unquote(trimmed[trimmed.index(after: equals)...])
                }
            }
            if !trimmed.isEmpty { sawAny = true }
            pair = ""
        }
        func endElement() {
            endPair()
            if sawAny { hops.append(forValue.map(node) ?? .unnamed) }
            forValue = nil
            sawAny = false
        }

        for character in value {
            if inQuotes {
                pair.append(character)
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inQuotes = false
                }
                continue
            }
            switch character {
            case "\"": inQuotes = true; pair.append(character)
            case ";": endPair()
            case ",": endElement()
            default: pair.append(character)
            }
        }
        endElement()
        return hops
    }

    /// A token as is; a quoted-string without its quotes and backslash escapes.
    private static func unquote(_ value: Substring) -> String {
        guard value.count >= 2, value.first == "\"", value.last == "\"" else { return String(value) }
        var result = ""
        var escaped = false
        for character in value.dropFirst().dropLast() {
            if escaped || character != "\\" {
                result.append(character)
                escaped = false
            } else {
                escaped = true
            }
        }
        return result
    }

    /// A node (RFC 7239 §6): `192.0.2.43`, `192.0.2.43:47011`, `"[2001:db8:cafe::17]"`,
    /// `"[2001:db8:cafe::17]:4711"`; `unknown` and `_obfuscated` name nobody.
    static func node(_ text: String) -> Hop {
        var name = Substring(text)
        if name.first == "[" {
            guard let close = name.firstIndex(of: "]") else { return .unnamed }
            let rest = name[name.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && isPort(rest.dropFirst())) else { return .unnamed }
            name = name[name.index(after: name.startIndex)..<close]
            guard name.contains(":"), let address = IPAddress(name) else { return .unnamed }
            return .address(address)
        }
        if let colon = name.firstIndex(of: ":") {
            // Unbracketed IPv6 is not a valid node, but X-Forwarded-For writers send it.
            if name[name.index(after: colon)...].contains(":") {
                return IPAddress(name).map(Hop.address) ?? .unnamed
            }
            guard isPort(name[name.index(after: colon)...]) else { return .unnamed }
            name = name[..<colon]
        }
        guard !name.contains(":"), let address = IPAddress(name) else { return .unnamed }
        return .address(address)
    }

    /// RFC 7239 §6: a node-port is a 1–5 digit number (or an obfuscated `_identifier`).
    private static func isPort(_ text: Substring) -> Bool {
        if text.first == "_" { return text.count > 1 }
        return !text.isEmpty && text.count <= 5 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    // MARK: X-Forwarded-For

    /// Comma-separated addresses, with optional whitespace; the de-facto format has no standard,
    /// so the same node forms as `Forwarded` are read (brackets and ports included).
    static func forwardedForHops(_ value: String) -> [Hop] {
        value.split(separator: ",", omittingEmptySubsequences: false).compactMap { entry in
            let trimmed = entry.trimmingOWS()
            return trimmed.isEmpty ? nil : node(String(trimmed))
        }
    }
}
