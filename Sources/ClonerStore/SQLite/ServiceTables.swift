/// Tables the service keeps beside the model's: idempotency answers and clone jobs. They live in
/// the same file so that recording an answer commits in the same transaction as the clone it
/// describes — a retry can never see a clone without its answer, or an answer without its clone.
enum ServiceTables {
    static let idempotency = "_cloner_idempotency"
    static let jobs = "_cloner_jobs"

    static let createStatements = [
        """
        CREATE TABLE IF NOT EXISTS "\(idempotency)" (
          key TEXT PRIMARY KEY,
          fingerprint TEXT NOT NULL,
          status INTEGER NOT NULL,
          location TEXT,
          body BLOB NOT NULL,
          created_at INTEGER NOT NULL
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
          finished_at INTEGER
        )
        """,
        "CREATE INDEX IF NOT EXISTS \"\(jobs)_created\" ON \"\(jobs)\" (created_at)",
    ]
}
