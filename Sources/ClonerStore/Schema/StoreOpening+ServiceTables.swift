/// The service's tables made, or brought up to date, as a store opens: the same steps on every
/// backend (`ServiceTables+Layout.swift`).
extension StoreOpening {
    /// Where every table, added column and index is there already, no DDL runs at all: on
    /// PostgreSQL, `CREATE … IF NOT EXISTS` and `ALTER TABLE` lock their table before they find
    /// there is nothing to do, so a replica starting beside live ones would stall their clones
    /// and lease scans, and deadlock with a scan that holds another table. Reading the catalog
    /// takes no table lock.
    static func prepareServiceTables(on connection: Connection) throws {
        let added = ServiceTables.addedColumns(Connection.Dialect.self)
        var missing: [(table: String, definition: String)] = []
        for column in added where try !hasColumn(column.column, inTable: column.table, on: connection) {
            missing.append((column.table, column.definition))
        }
        let tables = try applicationTableNames(on: connection)
        let indexes = try indexNames(on: connection)
        guard
            !missing.isEmpty || !ServiceTables.tables.allSatisfy({ tables.contains($0.name) })
                || !ServiceTables.indexes.allSatisfy({ indexes.contains($0.name) })
        else { return }
        for statement in ServiceTables.createStatements(Connection.Dialect.self) { try execute(statement, on: connection) }
        // A table made just now has every column; one an older version made gains what it lacks.
        for column in missing where tables.contains(column.table) {
            try execute("ALTER TABLE \(quoted(column.table)) ADD COLUMN \(column.definition)", on: connection)
        }
        for statement in ServiceTables.indexStatements { try execute(statement, on: connection) }
    }
}
