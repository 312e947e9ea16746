import ClonerModel
import Foundation

/// The steps before the walk: the root's check, its values per copy, and the objects a `set`
/// on the root names, each checked to exist.
extension PostgreSQLGraphCopier {
    /// The root's check, which also sets planner settings for the rest of this transaction (no
    /// extra round trip): no JIT — the copy's statements are estimated far above the JIT
    /// threshold (a recursive walk is guessed at millions of rows) and compiling them costs
    /// more than it saves on index lookups and inserts. (A large clone's room for sorts and
    /// hashes comes after its walk, `PostgreSQLGraphCopySQL.plannerDefaults`.)
    /// Its CTEs empty the work tables of the session's previous clone (see the type's comment).
    /// Generic plans, until the walk shows a large clone (`PostgreSQLGraphCopySQL
    /// .plannerDefaults`): prepared statements are then planned once per session, where
    /// PostgreSQL would otherwise keep choosing custom plans for some of them at every run (the
    /// walk and the map's fill), planning them again each time.
    /// And joins by nested loops, also until then: a small clone's statements meet at most a
    /// thousand objects, which index lookups find at a cost bounded by the clone, where a hash
    /// join reads the whole of a store table. PostgreSQL chose hash joins over whole tables for
    /// the plans a session keeps (the work tables' rows unknown to it), so that a clone cost
    /// more as the store grew (a 5-object clone's insert of its note read every note).
    /// It leaves the walk and linked tables as they are when they hold the walk and links the
    /// clone reuses (`copy`), and then reads the token beside them, to tell they are what this
    /// connection's last commit left (`PostgreSQLCloneSession.walkTableHolds`).
    static func rootCheck(root: EntityDescription, keepingWalk: Bool) -> String {
        let emptied =
            keepingWalk
            ? "WITH "
            : "WITH \"_empty_walk\" AS (DELETE FROM \(PostgreSQLGraphCopySQL.walkTable)), "
                + "\"_empty_linked\" AS (DELETE FROM \(PostgreSQLGraphCopySQL.linkedTable)), "
                + "\"_empty_token\" AS (DELETE FROM \(PostgreSQLSourceWalks.tokenTable)), "
        let token = keepingWalk ? ", (SELECT max(token) FROM \(PostgreSQLSourceWalks.tokenTable))" : ""
        return emptied + """
            "_empty_map" AS (DELETE FROM \(PostgreSQLGraphCopySQL.mapTable)) \
            SELECT set_config('jit', 'off', true), \
            set_config('plan_cache_mode', 'force_generic_plan', true), set_config('enable_hashjoin', 'off', true), \
            set_config('enable_mergejoin', 'off', true)\(token) FROM \(quoted(root.name)) WHERE "_id" = $1
            """
    }

    /// The root's check to send with the walk, given the kept walk's token: it then leaves the
    /// walk where it is (`copy`).
    func rootCheckBatch(root: EntityDescription) -> (Int64?) -> PostgreSQLStatementBatch {
        let (connection, session, rootID) = (connection, session, plan.rootID)
        let missingRoot = StoreError.notFound(entity: root.name, id: rootID)
        return { token in
            var batch = PostgreSQLStatementBatch()
            let sql = Self.rootCheck(root: root, keepingWalk: token != nil)
            batch.add(sql, [.int8(rootID)]) { result in
                guard result.rowCount > 0 else { throw missingRoot }
                // Rows another connection wrote on this server session, or none: the clone
                // runs again and writes them.
                if let token, result[0].optionalInt64(4) != token {
                    session.forgetWalkTable()
                    throw Self.sourceChanged("the work tables held another walk", sql: sql, connection: connection.redactedURI)
                }
            }
            return batch
        }
    }

    /// The root's values as statement parameters, and what the walk and the map need of them.
    struct RootValues {
        /// The root's `_id`, the time and the copies, then a values array and a flags array per
        /// property set on the root.
        var parameters: [PostgreSQLValue]
        var settings: [String: PostgreSQLGraphCopySQL.Setting] = [:]
        /// Whether the copies walk apart: a relationship of the root set on some copies only.
        var perCopyWalk = false
    }

    /// The root's values per copy (`perCopy`) as parameters: an array of each property's values
    /// and one of flags saying which copies set it.
    mutating func storedRootValues(root: EntityDescription, perCopy: [[String: AttributeValue]], now: Date) throws -> RootValues {
        var values = RootValues(parameters: [
            .int8(plan.rootID),
            try PostgreSQLStoreContext.parameter(.date(now), entity: root.name, attribute: "now"),
            .int8(Int64(plan.copies)),
        ])
        for name in Set(perCopy.flatMap(\.keys)).sorted() {
            let flags = perCopy.map { $0[name] != nil }
            var column: [PostgreSQLValue] = []
            let element: PostgreSQLValue.ArrayElement
            if let attribute = root.attribute(named: name) {
                element = PostgreSQLStoreContext.arrayElement(attribute.type)
                for copy in perCopy {
                    // A binary `set` value is stored as a blob and the copies take its key.
                    column.append(try context.storedValue(copy[name] ?? .null, entity: root.name, attribute: name))
                }
            } else {
                guard root.relationship(named: name) != nil else { preconditionFailure("\(root.name) has no property \(name)") }
                element = .int8
                for copy in perCopy {
                    if case .integer(let id)? = copy[name] { column.append(.int8(id)) } else { column.append(.null) }
                }
                if flags.contains(false) { values.perCopyWalk = true }
            }
            let count = values.parameters.count
            values.settings[name] = .init(values: count + 1, flags: count + 2, inEveryCopy: !flags.contains(false))
            values.parameters.append(.array(element: element, column))
            values.parameters.append(.array(element: .bool, flags.map { .bool($0) }))
        }
        return values
    }

    /// The scratch tables on a session that lost them (`PostgreSQLCloneSession.lacksWorkTables`).
    mutating func ensureWorkTables() throws {
        guard session.lacksWorkTables(on: connection) else { return }
        statementCount += 1
        try connection.execute(PostgreSQLCloneSession.workTablesDDL(for: schema))
    }
}
