import Foundation

/// Entity-tag lists of conditional requests (RFC 9110 §8.8.3, §13.1): a record's tag is its
/// `_version` in quotes, the model's its fingerprint.
enum EntityTags {
    /// Whether an `If-None-Match` list names the current tag: `*`, or any member by weak
    /// comparison, `W/` ignored (RFC 9110 §13.1.2).
    static func noneMatch(_ header: String, current: String) -> Bool {
        header.split(separator: ",").contains { member in
            var tag = member.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == current
        }
    }

    /// The versions in an entity-tag list (`"3"`, `W/"3"`, `"3", "4"`).
    static func versions(_ value: String) -> [Int64] {
        value.split(separator: ",").compactMap { part in
            var tag = part.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            guard tag.count >= 3, tag.hasPrefix("\""), tag.hasSuffix("\"") else { return nil }
            return Int64(tag.dropFirst().dropLast())
        }
    }
}
