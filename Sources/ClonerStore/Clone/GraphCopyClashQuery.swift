/// After a unique violation in a many-copies clone, the query that names the first copy whose
/// rows repeat a value — of a row that was there before, or of a row an earlier copy (or an
/// earlier row of the same copy) wrote — nulls never clashing. Both backends' copiers ask it in
/// their own dialect; only the pieces below differ between them.
enum GraphCopyClashQuery {
    /// - Parameters:
    ///   - values: per attribute, the expression the copy's insert would write for it, over the
    ///     original row `o` (the dialect's rule expression).
    ///   - columns: the attributes' quoted column names.
    ///   - table: the entity's quoted table; `map` the table of its map rows, `entityRows` the
    ///     condition that keeps a row `m` of it to the entity's (nil where it holds no other's),
    ///     `copyColumn` the map's copy-number column.
    ///   - excludingOwnRows: whether the copy's own rows are still in `table` (the copy was not
    ///     rolled back before asking) and must not count as earlier ones.
    static func sql(
        values: [String], columns: [String], table: String, map: String, entityRows: String?,
        copyColumn: String, excludingOwnRows: Bool
    ) -> String {
        precondition(!values.isEmpty && values.count == columns.count, "one value expression per column")
        let names = values.indices.map { "a\($0)" }
        let selected = zip(values, names).map { "\($0) AS \($1)" }.joined(separator: ", ")
        let notNull = names.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
        let matches = zip(columns, names).map { "e.\($0) = x.\($1)" }.joined(separator: " AND ")
        let own = excludingOwnRows ? " AND e.\"_id\" NOT IN (SELECT m.new FROM \(map) m\(entityRows.map { " WHERE \($0)" } ?? ""))" : ""
        let list = names.joined(separator: ", ")
        return """
            WITH v AS (SELECT m.\(copyColumn) AS cp, \(selected) FROM \(map) m JOIN \(table) o ON o."_id" = m.old\(entityRows.map { " WHERE \($0)" } ?? "")) \
            SELECT min(cp) FROM (SELECT cp, \(list), row_number() OVER (PARTITION BY \(list) ORDER BY cp) AS r \
            FROM v WHERE \(notNull)) x WHERE r > 1 OR EXISTS (SELECT 1 FROM \(table) e WHERE \(matches)\(own))
            """
    }
}
