/// The service tables in SQLite types: times are integer milliseconds.
extension ServiceTables {
    static let createStatements = [
        """
        CREATE TABLE IF NOT EXISTS "\(idempotency)" (
          key TEXT PRIMARY KEY,
          fingerprint TEXT NOT NULL,
          status INTEGER NOT NULL,
          location TEXT,
          body BLOB NOT NULL,
          created_at INTEGER NOT NULL,
          state TEXT NOT NULL DEFAULT 'done',
          owner TEXT,
          lease_expires_at INTEGER
        )
        """,
        "CREATE INDEX IF NOT EXISTS \"\(idempotency)_created\" ON \"\(idempotency)\" (created_at)",
        """
        CREATE TABLE IF NOT EXISTS "\(jobs)" (
          id TEXT PRIMARY KEY,
          status TEXT NOT NULL,
          request BLOB NOT NULL,
          result BLOB,
          error BLOB,
          created_at INTEGER NOT NULL,
          finished_at INTEGER,
          owner TEXT,
          lease_expires_at INTEGER
        )
        """,
        "CREATE INDEX IF NOT EXISTS \"\(jobs)_created\" ON \"\(jobs)\" (created_at)",
        // `GET /jobs?status=`: one page is one range of this index, newest first.
        "CREATE INDEX IF NOT EXISTS \"\(jobs)_status_created\" ON \"\(jobs)\" (status, created_at, id)",
        "CREATE TABLE IF NOT EXISTS \"\(jobCancellations)\" (id TEXT PRIMARY KEY, requested_at INTEGER NOT NULL)",
        // A clone's root by its key (a record read, a delete); a source's clones newest first
        // (`GET /{collection}/{id}/clones`), one range of the second index per page.
        """
        CREATE TABLE IF NOT EXISTS "\(lineage)" (
          entity TEXT NOT NULL,
          clone_id INTEGER NOT NULL,
          source_id INTEGER NOT NULL,
          created_at INTEGER NOT NULL,
          PRIMARY KEY (entity, clone_id)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX IF NOT EXISTS \"\(lineage)_source\" ON \"\(lineage)\" (entity, source_id, created_at, clone_id)",
    ]

    /// Columns added after the first release (replica leases, docs/architecture.md#replicas), per table, as
    /// `ALTER TABLE … ADD COLUMN` clauses: a store made by an older version gains the ones it lacks.
    /// Rows it already holds read as finished answers with no owner and no lease.
    static let addedColumns: [(table: String, column: String, definition: String)] = [
        (idempotency, "state", "state TEXT NOT NULL DEFAULT 'done'"),
        (idempotency, "owner", "owner TEXT"),
        (idempotency, "lease_expires_at", "lease_expires_at INTEGER"),
        (jobs, "owner", "owner TEXT"),
        (jobs, "lease_expires_at", "lease_expires_at INTEGER"),
    ]

    /// Indexes over the added columns, made once the columns exist: the expiry scan reads only
    /// unfinished rows.
    static let leaseIndexStatements = [
        "CREATE INDEX IF NOT EXISTS \"\(jobs)_lease\" ON \"\(jobs)\" (lease_expires_at) WHERE status IN ('queued', 'running')",
        "CREATE INDEX IF NOT EXISTS \"\(idempotency)_lease\" ON \"\(idempotency)\" (lease_expires_at) WHERE state = 'in_progress'",
    ]
}
