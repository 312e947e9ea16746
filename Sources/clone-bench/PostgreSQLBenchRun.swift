import ClonerClone
import ClonerModel
import ClonerStore
import Foundation

/// One measured copy on PostgreSQL in its own process (so VmHWM is this copy's peak): the Cloner
/// through `IncrementalStore` on the `postgresql://` location, as the service runs it, or the
/// hand-written `ReferenceCopy` on a connection of its own. Row counts before and after prove
/// both wrote the same rows; `pg_stat_statements` (loaded by the bench cluster) counts the
/// statements the server ran for the copy, whoever sent them.
struct PostgreSQLBenchRun {
    let model: DataModel
    let uri: String
    let root: Int64
    let mode: BenchRun.Mode

    func run() throws -> BenchMeasurement {
        let observer = try PostgreSQLConnection(uri: uri)
        let before = try rowCounts(observer)
        var reportedObjects = -1
        let clock = ContinuousClock()
        let store: IncrementalStore?
        let reference: PostgreSQLConnection?
        switch mode {
        case .cloner:
            store = try IncrementalStore(location: .postgreSQL(uri: uri), model: model)
            reference = nil
        case .sql:
            store = nil
            reference = try PostgreSQLConnection(uri: uri)
        case .singles:
            throw BenchArguments.Invalid(description: "pg-run measures one copy: --mode cloner or sql")
        }
        let openedKiB = PeakMemory.residentHighWaterMarkKiB()
        let statementsBefore = try statements(observer)
        let start = clock.now
        let startCPU = ProcessorTime.seconds()
        if let store {
            // No object limit: the service's guard is not what is measured.
            reportedObjects = try CloneEngine(store: store).clone(CloneRequest(entity: "Note", id: root, maximumObjects: .max)).totalCreated
        } else if let reference {
            _ = try ReferenceCopy(root: root).run(postgreSQL: reference)
        }
        let elapsed = clock.now - start
        let cpu = ProcessorTime.seconds() - startCPU
        // The store's session reads what its commit left unread (a large clone's TRUNCATE, which
        // the clone's answer does not wait for) before it is lent again: so the count below
        // holds every statement of the copy. The read's own BEGIN and COMMIT are not the copy's.
        var settling = 0
        if let store {
            try store.read { _ in }
            settling = 2
        }
        // The observer's own first read is counted too: one statement less.
        let statementCount = try statements(observer) - statementsBefore - 1 - settling
        let after = try rowCounts(observer)
        var measurement = try BenchMeasurement(
            copy: mode, schema: StoreSchema(model: model), before: before, after: after,
            reportedObjects: reportedObjects, elapsed: elapsed, cpuSeconds: cpu, openedKiB: openedKiB)
        measurement["statements"] = String(statementCount)
        return measurement
    }

    /// Statements clients have sent to this database so far (`pg_stat_statements`, utility
    /// statements such as BEGIN and COMMIT included). The store's foreign keys are deferred, so
    /// their per-row checks (`SELECT 1 FROM ONLY … FOR KEY SHARE OF x`) run at COMMIT outside any
    /// statement and count as top-level: left out by their shape, they are the server's work, not statements sent.
    private func statements(_ connection: PostgreSQLConnection) throws -> Int {
        Int(
            try connection.query(
                """
                SELECT coalesce(sum(calls), 0)::int8 FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())             AND query NOT LIKE '% FROM ONLY %FOR KEY SHARE OF x'
                """)[0].int64(0))
    }

    private func rowCounts(_ connection: PostgreSQLConnection) throws -> [String: Int] {
        let tables = model.entities.map(\.name) + StoreSchema(model: model).joinTables.map(\.name)
        let sql = tables.map { "(SELECT count(*) FROM \(quoted($0)))" }.joined(separator: ", ")
        let row = try connection.query("SELECT " + sql)[0]
        var counts: [String: Int] = [:]
        for (index, table) in tables.enumerated() { counts[table] = Int(row.int64(index)) }
        return counts
    }
}
