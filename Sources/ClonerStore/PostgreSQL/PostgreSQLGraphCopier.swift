import ClonerModel
import Foundation

/// PostgreSQL's side of a graph copy (`GraphCopyBackend`), run by `GraphCopier` as set-based SQL
/// (`PostgreSQLGraphCopySQL`) inside the caller's READ COMMITTED write transaction: nothing left behind on any failure, and statements
/// per clone that grow with the model, never with the objects or the copies. Blobs are copied by
/// INSERT … SELECT inside the server and never reach Swift.
///
/// One consistent source without a snapshot-wide isolation level: the walk finds the objects and
/// reads their versions, and every change of an object steps its version (a change of a
/// relationship, both ends'). A small clone's first run compares them once more after its last
/// read of the source (`sourceCheck`): all equal, nothing of the source changed in between, and
/// every statement read it as the walk did — while no clone of a hot template locks its rows, and
/// an edit of the template never waits for clones. A large clone, and any run after the first,
/// locks every walked object `FOR SHARE` and compares the versions before its first write
/// (`sourceLock`): once they agree, no walked row can change until the clone commits, so a
/// template edited without pause is still copied. A version that moved, in either way, fails the
/// copy with a serialization failure, which the store's write runs again from the start.
/// The objects the copies link are locked where their versions step, with the commit, or where
/// their ordered lists gain the copies, in one fixed order: concurrent clones and edits of the
/// same shared objects wait for each other instead of failing as they would under REPEATABLE
/// READ, and otherwise hold no lock on them side by side (`PostgreSQLGraphCopySQL.linkedLockSQL`).
///
/// Scratch space is three temporary tables per session (`PostgreSQLCloneSession.workTablesDDL`), created once when a
/// write first runs on the connection, outside any transaction: no DDL per clone. Each clone
/// empties them with `DELETE` in its first statement rather than letting PostgreSQL empty them
/// at commit (`ON COMMIT DELETE ROWS`): that commit-time truncation invalidates every cached plan
/// reading them, and replanning a small clone's statements costs the server more than executing
/// them. A `DELETE` leaves dead rows, which nothing vacuums in a temporary table and every
/// later scan of it reads, so a large clone, and a small one once the session's clones have left
/// `truncateRows` rows since the last one, ends with a `TRUNCATE`.
/// Statements naming the tables run prepared for a small clone and unprepared for a large one
/// (`preparedObjectLimit`): their best plans depend on how many rows the clone has.
///
/// The store may run the whole transaction again after a serialization failure or deadlock, so
/// a value of this lives for one run; what outlives it is its connection's `PostgreSQLCloneSession`'s.
struct PostgreSQLGraphCopier {
    let context: PostgreSQLStoreContext
    let plan: GraphCopyPlan

    var connection: PostgreSQLConnection { context.connection }
    var schema: StoreSchema { context.schema }
    /// What the clones keep on this connection, and what this one leaves to the COMMIT.
    var session: PostgreSQLCloneSession { context.connection.cloneSession }

    /// Statements sent per clone, for the benchmark's "statements per clone".
    var statementCount = 0

    init(context: PostgreSQLStoreContext, plan: GraphCopyPlan) {
        self.context = context
        self.plan = plan
    }

    /// Clones of at most this many objects run their statements prepared (cached per session),
    /// which saves parsing and planning them; a larger clone plans each statement for the rows it
    /// has (`ANALYZE`d scratch tables), so a plan made for a handful of rows is never used for a
    /// hundred thousand.
    static let preparedObjectLimit = 1_000

    /// How long a small clone's lock of its source waits for rows an edit holds (see `copy`):
    /// an edit holds them for milliseconds; longer is a deadlock in the making.
    static let sourceLockTimeout = "100ms"

    /// Rows the clones on one session may leave dead in a work table (walk, map, linked rows or
    /// walk tokens) before one ends with its `TRUNCATE`: only a truncation (or a vacuum, not
    /// allowed in a transaction) gives them back. Both ways cost: every scan of a work table reads
    /// its dead rows, and a truncation invalidates the session's cached plans (a small clone's
    /// statements are planned again). Counted in rows rather than clones, so the dead rows every
    /// scan reads stay bounded whatever the clones' size: a 5-object clone truncates after many
    /// clones, one of some hundreds of objects every few. Counted per table: each table truncated
    /// costs file work even when empty, so a large clone truncates its map and walk, and leaves
    /// its few linked rows to the next clone's `DELETE`.
    static let truncateRows = 1_000

    /// Set once the walk has counted the objects (`preparedObjectLimit`). Internal for the
    /// copier's extensions.
    var prepared = false

    /// One statement on the scratch tables: prepared for a small clone, unprepared for a large one.
    /// Internal for the copier's extensions.
    @discardableResult
    mutating func query(_ sql: String, _ values: [PostgreSQLValue]) throws -> PostgreSQLResult {
        statementCount += 1
        return prepared ? try connection.cachedQuery(sql, values) : try connection.query(sql, values)
    }

    /// One statement on the store's own tables (prepared and cached per connection).
    @discardableResult
    mutating func run(_ sql: String, _ values: [PostgreSQLValue]) throws -> PostgreSQLResult {
        statementCount += 1
        return try context.run(sql, values)
    }

    /// The root's check, still to run when it goes out with the walk (`checkRoot`).
    var pendingRootCheck: ((Int64?) -> PostgreSQLStatementBatch)?
    /// The root's values as parameters, once stored (`prepare`).
    var rootValues = RootValues(parameters: [])
    /// The copy's statements, once built (`prepare`).
    var copySQL: PostgreSQLGraphCopySQL?
    var sql: PostgreSQLGraphCopySQL {
        guard let copySQL else { preconditionFailure("the copy's statements are built when it is prepared") }
        return copySQL
    }
    /// The walk remembered or run, and what of it is kept (`walk`).
    var reuse = Reuse(key: nil, remembered: nil, links: nil, keepsWalkTable: false, token: nil)
    var walked = Walked()
    /// What the walk statement answered, kept to remember the walk once the copy has run.
    var answered: Walked?
    /// The statements collected since the last round trip, for the write's.
    var batch = PostgreSQLStatementBatch()
    var delivery = Delivery(locatesCopy: false, pipelined: true, sourceGuard: .lockFirst)
    var reusesLinks = false
    /// What the statements after the walk read.
    let answers = Answers()
    /// Whether the writes were sent: a copy that fails from then on tells its session.
    var wrote = false
}
