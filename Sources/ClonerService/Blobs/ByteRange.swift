/// What a `Range` header asks of a representation of `size` bytes (RFC 9110 §14.1.2, §14.2).
enum ByteRange: Equatable {
    /// Serve the whole representation: no header, a header this server ignores (another unit,
    /// a syntax error — RFC 9110 §14.2 lets a server ignore it), or several ranges, which it may
    /// answer with the whole (§14.2) instead of a multipart body.
    case whole
    /// One satisfiable range, as a half-open interval of byte offsets.
    case part(Range<Int64>)
    /// Every range lies past the end (§14.1.1: 416 with `Content-Range: bytes */size`).
    case unsatisfiable

    init(header: String?, size: Int64) {
        guard let header else { self = .whole; return }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes=") else { self = .whole; return }
        let set = trimmed.dropFirst("bytes=".count)
        let specs = set.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard specs.count == 1, let spec = specs.first, let dash = spec.firstIndex(of: "-") else { self = .whole; return }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        func number(_ text: Substring) -> Int64? {
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            return Int64(text) ?? .max  // past Int64: past the end of any representation
        }
        if first.isEmpty {
            // suffix-byte-range-spec: the last N bytes; N = 0 selects nothing (§14.1.2).
            guard let length = number(last) else { self = .whole; return }
            guard length > 0, size > 0 else { self = .unsatisfiable; return }
            self = .part(max(0, size - length)..<size)
            return
        }
        guard let start = number(first) else { self = .whole; return }
        var end = size - 1
        if !last.isEmpty {
            guard let stated = number(last) else { self = .whole; return }
            // first > last is invalid syntax (§14.1.1): ignored, so the whole is served.
            guard stated >= start else { self = .whole; return }
            end = min(stated, size - 1)
        }
        guard start < size else { self = .unsatisfiable; return }
        self = .part(start..<(end + 1))
    }
}
