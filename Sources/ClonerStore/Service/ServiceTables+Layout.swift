/// The service tables' layout, written once: each backend spells the column kinds in its own types
/// (`SQLDialect`), so the tables hold the same values on both (a time is SQLite's integer
/// milliseconds, PostgreSQL's `timestamptz`).
extension ServiceTables {
    /// What a column holds, as the service reads and writes it.
    enum ColumnKind {
        /// A text key, compared byte by byte on both databases.
        case key
        case text
        case integer
        case bytes
        case time
    }

    struct Column {
        let name: String
        let kind: ColumnKind
        /// What follows the type: `NOT NULL`, `PRIMARY KEY`, a default.
        let constraint: String
        /// Added after the first release (replica leases, docs/architecture.md#replicas): a store an
        /// older version made gains it by `ALTER TABLE … ADD COLUMN`, its rows reading as finished
        /// answers with no owner and no lease.
        var addedLater = false

        func definition<Dialect: SQLDialect>(_: Dialect.Type) -> String {
            let type =
                switch kind {
                case .key: Dialect.columnType(.string)
                case .text: Dialect.textType
                case .integer: Dialect.integerType
                case .bytes: Dialect.columnType(.binary)
                case .time: Dialect.columnType(.date)
                }
            return "\(name) \(type)" + (constraint.isEmpty ? "" : " " + constraint)
        }
    }

    struct Table {
        let name: String
        let columns: [Column]
        /// A key of several columns, for a table read by it (`SQLDialect.keyedTableOptions`).
        var compositeKey: [String]? = nil
    }

    struct Index {
        let name: String
        let table: String
        let columns: String
        /// A partial index's rows: one over an added column is made once that column exists.
        var condition: String? = nil
    }

    /// The replica holding an unfinished row, and until when (docs/architecture.md#replicas): the
    /// same two columns on the idempotency answers and the jobs, added after the first release.
    static let leaseColumns = [
        Column(name: "owner", kind: .text, constraint: "", addedLater: true),
        Column(name: "lease_expires_at", kind: .time, constraint: "", addedLater: true),
    ]

    static let tables = [
        Table(
            name: idempotency,
            columns: [
                Column(name: "key", kind: .key, constraint: "PRIMARY KEY"),
                Column(name: "fingerprint", kind: .text, constraint: "NOT NULL"),
                Column(name: "status", kind: .integer, constraint: "NOT NULL"),
                Column(name: "location", kind: .text, constraint: ""),
                Column(name: "body", kind: .bytes, constraint: "NOT NULL"),
                Column(name: "created_at", kind: .time, constraint: "NOT NULL"),
                Column(name: "state", kind: .text, constraint: "NOT NULL DEFAULT 'done'", addedLater: true),
            ] + leaseColumns),
        Table(
            name: jobs,
            columns: [
                Column(name: "id", kind: .key, constraint: "PRIMARY KEY"),
                Column(name: "status", kind: .text, constraint: "NOT NULL"),
                Column(name: "request", kind: .bytes, constraint: "NOT NULL"),
                Column(name: "result", kind: .bytes, constraint: ""),
                Column(name: "error", kind: .bytes, constraint: ""),
                Column(name: "created_at", kind: .time, constraint: "NOT NULL"),
                Column(name: "finished_at", kind: .time, constraint: ""),
            ] + leaseColumns),
        Table(
            name: jobCancellations,
            columns: [
                Column(name: "id", kind: .key, constraint: "PRIMARY KEY"),
                Column(name: "requested_at", kind: .time, constraint: "NOT NULL"),
            ]),
        // A clone's root by its key (a record read, a delete); a source's clones newest first
        // (`GET /{collection}/{id}/clones`), one range of its source index per page.
        Table(
            name: lineage,
            columns: [
                Column(name: "entity", kind: .key, constraint: "NOT NULL"),
                Column(name: "clone_id", kind: .integer, constraint: "NOT NULL"),
                Column(name: "source_id", kind: .integer, constraint: "NOT NULL"),
                Column(name: "created_at", kind: .time, constraint: "NOT NULL"),
            ],
            compositeKey: ["entity", "clone_id"]),
    ]

    static let indexes = [
        Index(name: "\(idempotency)_created", table: idempotency, columns: "created_at"),
        Index(name: "\(jobs)_created", table: jobs, columns: "created_at"),
        // `GET /jobs?status=`: one page is one range of this index, newest first.
        Index(name: "\(jobs)_status_created", table: jobs, columns: "status, created_at, id"),
        Index(name: "\(lineage)_source", table: lineage, columns: "entity, source_id, created_at, clone_id"),
        // The lease scans read only unfinished rows.
        Index(name: "\(jobs)_lease", table: jobs, columns: "lease_expires_at", condition: "status IN ('queued', 'running')"),
        Index(name: "\(idempotency)_lease", table: idempotency, columns: "lease_expires_at", condition: "state = 'in_progress'"),
    ]

    /// The tables as a store made now has them, in `Dialect`'s types.
    static func createStatements<Dialect: SQLDialect>(_: Dialect.Type) -> [String] {
        tables.map { table in
            var lines = table.columns.map { $0.definition(Dialect.self) }
            if let key = table.compositeKey { lines.append("PRIMARY KEY (\(key.joined(separator: ", ")))") }
            let options = table.compositeKey == nil ? "" : Dialect.keyedTableOptions
            return "CREATE TABLE IF NOT EXISTS \(quoted(table.name)) (\n  \(lines.joined(separator: ",\n  "))\n)\(options)"
        }
    }

    /// The columns a store made by an older version may lack, each with its definition.
    static func addedColumns<Dialect: SQLDialect>(_: Dialect.Type) -> [(table: String, column: String, definition: String)] {
        tables.flatMap { table in
            table.columns.filter(\.addedLater).map { (table.name, $0.name, $0.definition(Dialect.self)) }
        }
    }

    static var indexStatements: [String] {
        indexes.map { index in
            "CREATE INDEX IF NOT EXISTS \(quoted(index.name)) ON \(quoted(index.table)) (\(index.columns))"
                + (index.condition.map { " WHERE " + $0 } ?? "")
        }
    }
}
