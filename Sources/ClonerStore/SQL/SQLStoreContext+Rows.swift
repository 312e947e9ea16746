import ClonerModel
import Foundation

/// Rows written and read a batch at a time, the same on every backend: the inserts of a save, of
/// a graph import and of a whole-store move, the import's later column writes and natural-key
/// lookups, a move's typed reads. The dialect spells the statements (`SQLDialect.insertRows`,
/// `.parameterRows`), the backend lays out their values (`insertArguments`).
extension SQLStoreContext {
    /// This context as the store's row-level work sees it (`StoreContext.rowAccess`).
    var rowAccess: StoreRowAccess { StoreRowAccess(context: self) }

    /// Inserts `rows` (each one value per column, as stored) into `table`: one statement per
    /// batch of `Dialect.rowsPerInsert` rows or `Dialect.bytesPerInsert` bytes, whichever comes
    /// first. Without `waitsForAnswer`, each goes out with the next statement where the backend
    /// can send it so (`SQLConnection.performBeforeNextCommand`): for a caller that attributes a
    /// failure to nothing finer than its transaction.
    func insertRows(
        into table: String, columns: [(name: String, type: AttributeType)], rows: [[Connection.Value]], skippingDuplicates: Bool,
        waitsForAnswer: Bool = true
    ) throws {
        let names = columns.map { quoted($0.name) }
        let types = columns.map(\.type)
        let perStatement = Dialect.rowsPerInsert(columns: columns.count)
        var start = 0
        while start < rows.count {
            var end = start
            var bytes = 0
            while end < rows.count, end - start < perStatement, end == start || bytes < Dialect.bytesPerInsert {
                precondition(rows[end].count == columns.count, "a row of \(rows[end].count) values for \(columns.count) columns of \(table)")
                for value in rows[end] { bytes += Self.approximateBytes(value) }
                end += 1
            }
            let sql = Dialect.insertRows(
                into: quoted(table), columns: names, types: types, rowCount: end - start, skippingDuplicates: skippingDuplicates)
            let values = Self.insertArguments(rows[start..<end], types: types)
            if waitsForAnswer {
                try connection.perform(sql, values: values)
            } else {
                try connection.performBeforeNextCommand(sql, values: values)
            }
            start = end
        }
    }

    /// Inserts rows of attribute values into `table`: each row one value per column (`type` nil
    /// for an `_id`, a reference or a position, as `.integer` or `.null`), binary values stored as
    /// blobs (`storedRows`). With `ignoringDuplicates`, a row whose key is there already is
    /// skipped (a join row both sides of a self-inverse pair write).
    func insertRows(
        table: String, columns: [(name: String, type: AttributeType?)], rows: [[AttributeValue]], entity: String,
        ignoringDuplicates: Bool, waitsForAnswer: Bool = true
    ) throws {
        guard !rows.isEmpty else { return }
        try insertRows(
            into: table, columns: columns.map { ($0.name, $0.type ?? .integer) }, rows: try storedRows(rows, columns: columns, entity: entity),
            skippingDuplicates: ignoringDuplicates, waitsForAnswer: waitsForAnswer)
    }

    /// Sets reference or position columns of a row written before (a link that came later).
    func setColumns(table: String, id: Int64, _ values: [(column: String, value: Int64?)]) throws {
        let sql =
            "UPDATE \(quoted(table)) SET " + values.enumerated().map { "\(quoted($1.column)) = \(Dialect.parameter($0 + 1))" }.joined(separator: ", ")
            + " WHERE \"_id\" = \(Dialect.parameter(values.count + 1))"
        try connection.perform(sql, arguments: values.map { $0.value.map(SQLArgument.integer) ?? .null } + [.integer(id)])
    }

    /// Runs the statement `sql` writes given the dialect's "`IN` these ids" (`Dialect.inList`),
    /// with `ids` bound to it.
    func perform(_ sql: (_ inIDs: String) -> String, ids: [Int64]) throws {
        try connection.perform(sql(Dialect.inList(1)), arguments: [.ids(ids)])
    }

    /// Which of `values` (each one value per attribute of `key`) an object of `entity` holds:
    /// their index in `values` with that object's `_id`, the objects found locked as a save locks
    /// the objects it links (`Dialect.lockForLink`). One statement; a binary value is compared
    /// by its blob's key.
    func findIDs(entity: EntityDescription, key: [AttributeDescription], values: [[AttributeValue]]) throws -> [(Int, Int64)] {
        guard !values.isEmpty else { return [] }
        let names = ["n"] + key.indices.map { "k\($0)" }
        let types: [AttributeType] = [.integer] + key.map(\.type)
        let match = key.enumerated().map { "e.\(quoted($1.name)) = v.k\($0)" }.joined(separator: " AND ")
        let sql =
            "SELECT v.n, e.\"_id\" FROM \(Dialect.parameterRows("v", columns: names, types: types, rowCount: values.count)) "
            + "JOIN \(quoted(entity.name)) AS e ON \(match) ORDER BY e.\"_id\"\(Dialect.lockForLink("e"))"
        var rows: [[Connection.Value]] = []
        rows.reserveCapacity(values.count)
        for (index, list) in values.enumerated() {
            var row = [Connection.value(.integer(Int64(index)))]
            for (position, attribute) in key.enumerated() {
                row.append(try Self.boundValue(list[position].blobKeyed, entity: entity.name, attribute: attribute.name))
            }
            rows.append(row)
        }
        var found: [(Int, Int64)] = []
        try forEachRow(sql, values: Self.insertArguments(rows[...], types: types)) { row in
            found.append((Int(row.int64(0)), row.int64(1)))
        }
        return found
    }
}
