import ClonerModel

extension PostgreSQLDialect {
    static let trueLiteral = "true"
    static let falseLiteral = "false"
    static let nullReference = "NULL::int8"
    static let newUUID = "gen_random_uuid()"
    static let caseBranchesShareOneType = true
    /// Cast, so a CASE whose every branch is NULL (read as text) is still the column's type.
    static func typed(_ expression: String, _ type: AttributeType) -> String { "CAST(\(expression) AS \(castType(type)))" }
    static func workTable(_ name: String) -> String { "pg_temp.\(quoted(name))" }

    /// The rows are grouped by key first, keeping the greatest value: PostgreSQL refuses an
    /// ON CONFLICT DO UPDATE that would touch one row twice in a statement.
    static func insertKeepingGreatest(_ column: String, key: [String], into table: String, select: String) -> String {
        let keys = key.joined(separator: ", ")
        return "INSERT INTO \(table) AS l (\(keys), \(column)) SELECT \(keys), max(\(column)) FROM (\(select)) s(\(keys), \(column)) GROUP BY \(keys) "
            + "ON CONFLICT (\(keys)) DO UPDATE SET \(column) = GREATEST(l.\(column), EXCLUDED.\(column))"
    }
}
