import Foundation

/// Helpers for libpq connection strings, chiefly keeping passwords out of logs and errors
/// (docs/architecture.md#postgresql: a password never appears in a log line or an error).
///
/// Both libpq forms are handled: the URI (`postgresql://user:secret@host/db?password=secret`,
/// libpq §34.1.1.2) and keyword/value (`host=/tmp password='secret'`, §34.1.1.1).
package enum PostgreSQLURI {
    /// Whether `string` selects the PostgreSQL store: libpq accepts both URI schemes.
    package static func isPostgreSQL(_ string: String) -> Bool {
        let lower = string.lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    }

    /// `string` with every password replaced by `***`; everything else (user, host, database,
    /// options) is kept, because that is what an operator needs to see in an error.
    package static func redacted(_ string: String) -> String {
        isPostgreSQL(string) ? redactedURI(string) : redactedKeywordValue(string)
    }

    /// The password spellings found in `string` — as written (possibly percent-encoded or quoted)
    /// and decoded — so a message libpq built from the string (for instance "invalid
    /// percent-encoded token") can be scrubbed of them.
    package static func secrets(in string: String) -> [String] {
        var found: [String] = []
        func add(_ raw: Substring) {
            guard !raw.isEmpty else { return }
            found.append(String(raw))
            if let decoded = raw.removingPercentEncoding, decoded != raw { found.append(decoded) }
        }
        if isPostgreSQL(string) {
            let parts = splitURI(string)
            if let userInfo = parts.userInfo, let colon = userInfo.firstIndex(of: ":") {
                add(userInfo[userInfo.index(after: colon)...])
            }
            for parameter in parts.query.split(separator: "&") where parameter.hasPrefix("password=") {
                add(parameter.dropFirst("password=".count))
            }
        } else {
            for range in keywordPasswordRanges(string) {
                let value = string[range]
                add(value)
                if value.hasPrefix("'"), value.hasSuffix("'"), value.count >= 2 {
                    add(value.dropFirst().dropLast())
                }
            }
        }
        // Longest first, so scrubbing "secret%21" happens before its prefix "secret".
        return found.sorted { $0.count > $1.count }
    }

    /// `text` with each of `secrets` replaced by `***`. Secrets shorter than three characters are
    /// left alone: scrubbing every "a" from a message would make it unreadable, and libpq never
    /// echoes a password it parsed correctly.
    package static func scrub(_ text: String, secrets: [String]) -> String {
        var text = text
        for secret in secrets where secret.count >= 3 {
            text = text.replacingOccurrences(of: secret, with: "***")
        }
        return text
    }

    // MARK: - URI form

    private struct URIParts {
        var prefix: Substring  // scheme and "://"
        var userInfo: Substring?  // before the last "@" of the authority and path
        var rest: Substring  // host, port, path
        var query: Substring  // after "?", without it
        var hasQuery: Bool
    }

    private static func splitURI(_ string: String) -> URIParts {
        let schemeEnd = string.range(of: "://")!.upperBound
        let prefix = string[..<schemeEnd]
        let afterScheme = string[schemeEnd...]
        let queryStart = afterScheme.firstIndex(of: "?")
        let beforeQuery = afterScheme[..<(queryStart ?? afterScheme.endIndex)]
        let query = queryStart.map { afterScheme[afterScheme.index(after: $0)...] } ?? ""
        // The last "@": an unencoded "@" inside a careless password still stays in the user info.
        if let at = beforeQuery.lastIndex(of: "@") {
            return URIParts(
                prefix: prefix, userInfo: beforeQuery[..<at], rest: beforeQuery[at...],
                query: query, hasQuery: queryStart != nil)
        }
        return URIParts(prefix: prefix, userInfo: nil, rest: beforeQuery, query: query, hasQuery: queryStart != nil)
    }

    private static func redactedURI(_ string: String) -> String {
        let parts = splitURI(string)
        var result = String(parts.prefix)
        if let userInfo = parts.userInfo {
            if let colon = userInfo.firstIndex(of: ":") {
                result += userInfo[...colon] + "***"
            } else {
                result += userInfo
            }
        }
        result += parts.rest
        if parts.hasQuery {
            let parameters = parts.query.split(separator: "&", omittingEmptySubsequences: false).map { parameter in
                parameter.hasPrefix("password=") ? "password=***" : String(parameter)
            }
            result += "?" + parameters.joined(separator: "&")
        }
        return result
    }

    // MARK: - keyword/value form

    /// The ranges of the values of `password` keywords: `password = value` or `password='v a l'`
    /// with backslash escapes inside quotes (libpq §34.1.1.1).
    private static func keywordPasswordRanges(_ string: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var index = string.startIndex
        while let found = string.range(of: "password", range: index..<string.endIndex) {
            index = found.upperBound
            // Only a keyword: at the start or after whitespace.
            if found.lowerBound != string.startIndex,
                !string[string.index(before: found.lowerBound)].isWhitespace
            {
                continue
            }
            var cursor = found.upperBound
            while cursor < string.endIndex, string[cursor].isWhitespace { cursor = string.index(after: cursor) }
            guard cursor < string.endIndex, string[cursor] == "=" else { continue }
            cursor = string.index(after: cursor)
            while cursor < string.endIndex, string[cursor].isWhitespace { cursor = string.index(after: cursor) }
            let valueStart = cursor
            if cursor < string.endIndex, string[cursor] == "'" {
                cursor = string.index(after: cursor)
                while cursor < string.endIndex, string[cursor] != "'" {
                    if string[cursor] == "\\" { cursor = string.index(after: cursor) }
                    if cursor < string.endIndex { cursor = string.index(after: cursor) }
                }
                if cursor < string.endIndex { cursor = string.index(after: cursor) }
            } else {
                while cursor < string.endIndex, !string[cursor].isWhitespace { cursor = string.index(after: cursor) }
            }
            ranges.append(valueStart..<cursor)
            index = cursor
        }
        return ranges
    }

    private static func redactedKeywordValue(_ string: String) -> String {
        var result = string
        for range in keywordPasswordRanges(string).reversed() {
            result.replaceSubrange(range, with: "***")
        }
        return result
    }
}
