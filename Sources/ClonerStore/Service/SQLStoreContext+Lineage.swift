import Foundation

/// Where clones came from (docs/architecture.md#lineage), written once for every backend: one
/// statement per clone for all its copies, one per delete for every doomed object, one per page.
/// A record read finds its own row through `SQLRecordColumns.clonedFrom`, in the record's query.
extension SQLStoreContext {
    private var lineage: String { ServiceTables.quotedLineage }
    private func p(_ n: Int) -> String { Dialect.parameter(n) }

    /// Sent with the transaction's next statement, at the latest its COMMIT, where the backend
    /// can (`SQLConnection.performBeforeNextCommand`): a small clone keeps its round trips, and a
    /// failure still fails the transaction, so the copy and its lineage commit together or not at all.
    func recordClones(entity: String, sourceID: Int64, cloneIDs: [Int64], at date: Date) throws {
        guard !cloneIDs.isEmpty else { return }
        let sql = """
            INSERT INTO \(lineage) (entity, clone_id, source_id, created_at)
            SELECT \(p(1)), \(Dialect.listedID), \(Dialect.integer(2)), \(p(3)) FROM \(Dialect.listed(4))
            """
        let arguments: [SQLArgument] = [.text(entity), .integer(sourceID), .timestamp(date), .ids(cloneIDs)]
        try connection.performBeforeNextCommand(sql, values: arguments.map(Connection.value))
    }

    func clones(entity: String, sourceID: Int64, after position: CloneListPosition?, limit: Int) throws -> [CloneLineage] {
        var arguments: [SQLArgument] = [.text(entity), .integer(sourceID)]
        var keyset = ""
        if let position {
            arguments.append(.timestamp(Date(timeIntervalSince1970: Double(position.createdAtMilliseconds) / 1000)))
            arguments.append(.integer(position.cloneID))
            keyset = " AND (created_at, clone_id) < (\(p(3)), \(p(4)))"
        }
        arguments.append(.integer(Int64(limit)))
        var found: [CloneLineage] = []
        try connection.forEachRow(
            """
            SELECT clone_id, created_at FROM \(lineage) WHERE entity = \(p(1)) AND source_id = \(p(2))\(keyset)
            ORDER BY created_at DESC, clone_id DESC LIMIT \(p(arguments.count))
            """, arguments: arguments
        ) { row in
            found.append(CloneLineage(entity: entity, cloneID: row.int64(0), sourceID: sourceID, createdAt: row.date(1)))
        }
        return found
    }

    func clonedFrom(entity: String, ids: [Int64]) throws -> [Int64: Int64] {
        var sources: [Int64: Int64] = [:]
        guard !ids.isEmpty else { return sources }
        try connection.forEachRow(
            "SELECT clone_id, source_id FROM \(lineage) WHERE entity = \(p(1)) AND clone_id \(Dialect.among(2))",
            arguments: [.text(entity), .ids(ids)]
        ) { sources[$0.int64(0)] = $0.int64(1) }
        return sources
    }

    /// Forgets the lineage of deleted objects, `doomed` by entity: one statement for all of them.
    /// A source's deletion leaves its clones' rows alone: they still say where each came from.
    func forgetLineage(of doomed: [String: [Int64]]) throws {
        let entities = doomed.keys.sorted()
        guard !entities.isEmpty else { return }
        var conditions: [String] = []
        var arguments: [SQLArgument] = []
        for entity in entities {
            arguments.append(.text(entity))
            arguments.append(.ids(doomed[entity] ?? []))
            conditions.append("(entity = \(p(arguments.count - 1)) AND clone_id \(Dialect.among(arguments.count)))")
        }
        try connection.performBeforeNextCommand("DELETE FROM \(lineage) WHERE " + conditions.joined(separator: " OR "), values: arguments.map(Connection.value))
    }
}
