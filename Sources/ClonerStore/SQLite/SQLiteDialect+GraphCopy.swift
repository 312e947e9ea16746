import ClonerModel

extension SQLiteDialect {
    static let trueLiteral = "1"
    static let falseLiteral = "0"
    static let nullReference = "NULL"
    /// A version 4 UUID in canonical lower-case text, from SQLite's own random bytes, so a
    /// rebuilt id costs no call back into Swift.
    static let newUUID = """
        (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' \
        || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))
        """
    /// Values are dynamically typed: a CASE may mix them.
    static let caseBranchesShareOneType = false
    static func typed(_ expression: String, _ type: AttributeType) -> String { expression }
    static func workTable(_ name: String) -> String { "temp.\(quoted(name))" }

    /// The update's own WHERE leaves a row unwritten when its value stays: many rows may name few
    /// keys, and rewriting the row at each is a write for nothing. `WHERE true` tells SQLite's
    /// parser the upsert clause is not a join's ON.
    static func insertKeepingGreatest(_ column: String, key: [String], into table: String, select: String) -> String {
        let columns = (key + [column]).joined(separator: ", ")
        return "INSERT INTO \(table) (\(columns)) SELECT \(columns) FROM (\(select)) WHERE true "
            + "ON CONFLICT (\(key.joined(separator: ", "))) DO UPDATE SET \(column) = excluded.\(column) WHERE excluded.\(column) > \(column)"
    }
}
