import Foundation

/// Record versions as HTTP entity tags (RFC 9110 §8.8.3): `ETag: "3"` for `_version` 3, and the
/// `If-Match` / `If-None-Match` checks of RFC 9110 §13.1.
public enum EntityTag {
    /// A strong tag: the version changes on every write, so equal tags mean identical records.
    public static func header(forVersion version: Int64) -> String { "\"\(version)\"" }

    /// RFC 9110 §13.1.1: `*` matches any existing record; otherwise a comma-separated list of tags,
    /// compared with the strong comparison (a weak tag `W/"3"` never matches).
    /// Returns nil when the field is malformed, which the handler answers with 400.
    public static func ifMatch(_ field: String, version: Int64) -> Bool? {
        guard let tags = parseList(field) else { return nil }
        let current = header(forVersion: version)
        return tags.contains { $0 == "*" || $0 == current }
    }

    /// RFC 9110 §13.1.2: `*` or any listed tag equal under the weak comparison means "not modified".
    public static func ifNoneMatch(_ field: String, version: Int64) -> Bool? {
        guard let tags = parseList(field) else { return nil }
        let current = header(forVersion: version)
        return tags.contains { $0 == "*" || $0 == current || $0 == "W/" + current }
    }

    /// `#entity-tag` or `*` (RFC 9110 §8.8.3: `[ "W/" ] DQUOTE *etagc DQUOTE`); nil when malformed.
    static func parseList(_ field: String) -> [String]? {
        let trimmed = field.trimmingCharacters(in: .whitespaces)
        if trimmed == "*" { return ["*"] }
        var tags: [String] = []
        for piece in trimmed.split(separator: ",", omittingEmptySubsequences: true) {
            let tag = piece.trimmingCharacters(in: .whitespaces)
            if tag.isEmpty { continue }
            let opaque = tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
            guard opaque.count >= 2, opaque.first == "\"", opaque.last == "\"",
                  !opaque.dropFirst().dropLast().contains("\"") else { return nil }
            tags.append(tag)
        }
        return tags.isEmpty ? nil : tags
    }
}
