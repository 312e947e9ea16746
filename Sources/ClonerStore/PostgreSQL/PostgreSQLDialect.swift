import ClonerModel
import Foundation

/// PostgreSQL's side of the shared store SQL: `$n` parameters, cast to `int8` where nothing else
/// gives their type, id lists bound as one `int8[]` (looked up with `= ANY`, which uses the primary
/// key, and tested with `IN`/`NOT IN (SELECT unnest(…))`, which PostgreSQL hashes), read as rows
/// with their 1-based ordinality, and `ON CONFLICT DO NOTHING`.
enum PostgreSQLDialect: SQLDialect {
    static func parameter(_ n: Int) -> String { "$\(n)" }
    static func integer(_ n: Int) -> String { "$\(n)::int8" }
    static func among(_ n: Int) -> String { "= ANY($\(n))" }
    static func inList(_ n: Int) -> String { "IN (SELECT unnest($\(n)::int8[]))" }
    static func notInList(_ n: Int) -> String { "NOT IN (SELECT unnest($\(n)::int8[]))" }
    static func listed(_ n: Int) -> String { "unnest($\(n)::int8[]) WITH ORDINALITY AS a(id, ord)" }
    static let listedID = "a.id"
    static let listedPlace = "a.ord - 1"
    static func listedPlace(in n: Int) -> String { "($\(n)::int8[])[a.ord]" }
    static func octetLength(_ expression: String) -> String { "octet_length(\(expression))" }
    static func insertSkippingDuplicates(into table: String, columns: [String], select: String) -> String {
        "INSERT INTO \(table) (\(columns.joined(separator: ", "))) \(select) ON CONFLICT DO NOTHING"
    }
}

extension PostgreSQLDialect {
    /// PostgreSQL's recursive term may name the CTE only once: the edges are joined to it
    /// laterally, in one recursive select.
    static func closure(edges: [SQLClosureEdge]) -> String {
        guard !edges.isEmpty else { return "SELECT $1::int8, $2::int8" }
        let steps = edges.map { edge in
            "SELECT \(edge.entity)::int8, \(edge.id) FROM \(edge.table) AS t WHERE \(edge.condition)"
        }
        return """
            WITH RECURSIVE closure(ent, id) AS (
              SELECT $1::int8, $2::int8
              UNION
              SELECT e.ent, e.id FROM closure AS c CROSS JOIN LATERAL (\(steps.joined(separator: "\nUNION ALL\n"))) AS e(ent, id)
            )
            SELECT ent, id FROM closure
            """
    }
}
