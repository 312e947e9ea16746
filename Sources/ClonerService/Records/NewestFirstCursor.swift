import Foundation

/// The cursor of a list ordered newest first (jobs, an object's clones): opaque to clients,
/// base64url (RFC 4648 §5, no padding) of `<milliseconds>.<key>`, the last item's time and key.
enum NewestFirstCursor {
    static func encoded(milliseconds: Int64, key: String) -> String {
        Data("\(milliseconds).\(key)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The time and key a cursor holds; nil for anything this did not write (padding or the
    /// standard alphabet included), or past `maximumBytes`.
    static func decoded(_ cursor: String, maximumBytes: Int = 128) -> (milliseconds: Int64, key: String)? {
        guard cursor.utf8.count <= maximumBytes, !cursor.contains("="), !cursor.contains("+"), !cursor.contains("/") else { return nil }
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
            let dot = text.firstIndex(of: "."), let milliseconds = Int64(text[..<dot])
        else { return nil }
        return (milliseconds, String(text[text.index(after: dot)...]))
    }
}
