import ClonerModel

/// SQLite's side of the shared store SQL: `?n` parameters (untyped, so an integer needs no cast),
/// id lists bound as one JSON array text and read with `json_each` (`key` is the 0-based place),
/// and `INSERT OR IGNORE`.
enum SQLiteDialect: SQLDialect {
    static func parameter(_ n: Int) -> String { "?\(n)" }
    static func integer(_ n: Int) -> String { "?\(n)" }
    static func among(_ n: Int) -> String { "IN (SELECT value FROM json_each(?\(n)))" }
    static func inList(_ n: Int) -> String { among(n) }
    static func notInList(_ n: Int) -> String { "NOT IN (SELECT value FROM json_each(?\(n)))" }
    static func listed(_ n: Int) -> String { "json_each(?\(n)) AS a" }
    static let listedID = "a.value"
    static let listedPlace = "a.key"
    static func listedPlace(in n: Int) -> String { "json_extract(?\(n), '$[' || a.key || ']')" }
    /// `length` of TEXT counts characters; of a BLOB, bytes.
    static func octetLength(_ expression: String) -> String { "length(CAST(\(expression) AS BLOB))" }
    static func insertSkippingDuplicates(into table: String, columns: [String], select: String) -> String {
        "INSERT OR IGNORE INTO \(table) (\(columns.joined(separator: ", "))) \(select)"
    }
}

extension SQLiteDialect {
    /// SQLite lets a recursive CTE name itself in several recursive selects of its compound:
    /// one select per edge.
    static func closure(edges: [SQLClosureEdge]) -> String {
        let steps = edges.map { edge in
            "SELECT \(edge.entity), \(edge.id) FROM closure AS c JOIN \(edge.table) AS t ON \(edge.condition)"
        }
        let body = (["SELECT ?1, ?2"] + steps).joined(separator: "\nUNION\n")
        return "WITH RECURSIVE closure(ent, id) AS (\(body)) SELECT ent, id FROM closure"
    }
}
