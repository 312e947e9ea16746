import Foundation

extension PostgreSQLStoreContext {
    /// The shared statement (`SQLStoreContext+Lineage`), sent in the COMMIT's pipeline inside a
    /// write: a small clone keeps its round trips (docs/architecture.md#lineage). A failure fails
    /// the COMMIT, so the copy and its lineage still commit together or not at all.
    func recordClones(entity: String, sourceID: Int64, cloneIDs: [Int64], at date: Date) throws {
        guard !cloneIDs.isEmpty else { return }
        let (sql, arguments) = Self.recordClonesStatement(entity: entity, sourceID: sourceID, cloneIDs: cloneIDs, at: date)
        let statement = PostgreSQLConnection.PipelinedStatement(sql, arguments.map(PostgreSQLConnection.value), isPrepared: true)
        if connection.cloneSession.sendWithCommit(statement) { return }
        _ = try connection.perform(sql, arguments: arguments)
    }
}
