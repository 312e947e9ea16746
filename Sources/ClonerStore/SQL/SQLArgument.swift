import Foundation

/// A value bound to the store SQL written once for every backend (`SQLStoreContext`): only the
/// kinds that SQL needs. Each backend turns it into its own value type as it binds it
/// (`SQLConnection`), so the shared code names no backend's types.
enum SQLArgument: Equatable {
    case null
    case integer(Int64)
    case text(String)
    /// A list of ids bound as one parameter and read back as rows through the dialect
    /// (`SQLDialect.among`, `.listed`): a list of any length is one statement with one plan.
    case ids([Int64])

    // MARK: blobs and service tables

    /// Bytes: a blob's key or chunk, a stored answer or job document.
    case bytes(Data)
    /// A point in time, kept to the millisecond (integer milliseconds on SQLite, `timestamptz` on
    /// PostgreSQL): the service tables' creation times and leases.
    case timestamp(Date)
    /// A list of texts bound as one parameter and matched with `SQLDialect.among` (job ids).
    case texts([String])
    /// A list of blob keys (each `BlobDigest.length` bytes) bound as one parameter and matched
    /// with `SQLDialect.amongBlobKeys`.
    case blobKeys([Data])
}

extension SQLArgument {
    /// `date` to the millisecond, as `.timestamp` stores it and a lease is compared.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// `texts` as one JSON array text, for a backend that reads a list from JSON (`json_each`).
    static func jsonArray(_ texts: [String]) -> String {
        var json = "["
        for (index, text) in texts.enumerated() {
            if index > 0 { json += "," }
            json += "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case _ where scalar.value < 0x20: json += String(format: "\\u%04x", scalar.value)
                default: json.unicodeScalars.append(scalar)
                }
            }
            json += "\""
        }
        return json + "]"
    }
}
