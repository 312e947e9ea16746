/// The walks of small clones' sources a session has made, kept so that its next clone of the same
/// source writes the walk table from them instead of walking again (`PostgreSQLGraphCopier`).
///
/// Why a remembered walk may stand for a new one: the walk reads each object's `_version`, every
/// change of an object steps it, and a change of a relationship steps both ends — so an object
/// joining or leaving the graph steps the version of a walked object it hangs from or was. A small
/// clone's first run already trusts this between its walk and its last read: it compares the
/// walked versions once more at the end (`PostgreSQLGraphCopySQL.sourceCheck`) and runs again,
/// walking and locking, when one moved. A remembered walk is only that comparison over a longer
/// span, from the clone that walked to the one that reuses it. Versions only grow and ids are never
/// reused, so equal versions at the end mean the walk the clone used is the walk it would have
/// made. A clone that finds a remembered walk out of date forgets it, and its second run walks.
///
/// For a hot template this saves the clone's largest statement (a recursive query over every
/// owned relationship) and, since the walk's counts are known before anything is sent, one round
/// trip: the root's check, the walk's rows and the copy go out in one pipeline.
///
/// Per session, like the prepared statements and `PostgreSQLCloneSession.graphCopySQL`: a connection is used by one clone
/// at a time, so this needs no lock. Bounded: walks of at most `rowLimit` rows (the small clones
/// that run prepared), at most `rowBudget` rows of walks and links together, the oldest
/// forgotten first.
struct PostgreSQLSourceWalks {
    /// One walk: the walk statement (its text holds the plan's shape: the relationships it
    /// follows, the root's exclusions, its row limit) from one root.
    struct Key: Hashable {
        let walk: String
        let rootID: Int64
    }

    /// The walk table's rows as the statement parameters that write them back, and what the walk
    /// statement answered: objects per entity (one walk shared by every copy, before multiplying
    /// by the copies), rows written, and the entities with objects that may join an original's
    /// list.
    struct Walk {
        let columns: [PostgreSQLValue]
        let objects: [Int: Int]
        let rows: Int
        let mayAppend: Set<Int>
        /// The linked table's rows the walk's clone found, when they can be reused (see `Links`).
        var links: Links?

        /// Rows kept for it, walk and links.
        var size: Int { rows + (links?.rows ?? 0) }
    }

    /// The shared objects a clone of the walked source links, and how many of each entity: the
    /// linked table's rows as the parameters that write them back. They follow from the walked
    /// objects as the versions say they are — the references and join rows of walked objects,
    /// any change of which steps a walked version — so a clone that reuses the walk reuses them
    /// too, and sends neither the statement that finds them nor the one that counts them. That
    /// one also made sure they still exist; the copies' deferred foreign keys do that at the
    /// commit, and a linked object deleted since runs the clone again
    /// (`PostgreSQLCloneSession.commitFailure`). Not kept for a clone that locks linked objects
    /// whose ordered lists its copies join, nor for one that sets relationships of the root.
    struct Links {
        let columns: [PostgreSQLValue]
        let counts: [Int: Int]
        let rows: Int
    }

    /// A remembered walk the work tables hold, and the token written in the session beside it.
    struct Held: Equatable {
        let key: Key
        let token: Int64
    }

    /// The token table's statements: a kept walk's token is read by the root check
    /// (`PostgreSQLGraphCopier`), and written with the rows of a walk to be kept.
    static let tokenTable = "pg_temp.\"_clone_walk_token\""
    static let writeToken = "INSERT INTO \(tokenTable) (token) VALUES ($1)"

    /// Walks of more rows than this are not kept: the clone runs unprepared past
    /// `PostgreSQLGraphCopier.preparedObjectLimit` objects, where a walk is a small part of it.
    static let rowLimit = 1_000
    /// Rows of walks and links a session keeps, about 112 bytes each (five `int8` columns and
    /// three nullable ones): under 2 MiB a session, 18 MiB for the default pool of ten, however
    /// many templates are cloned — and a few hundred of the small hot ones a backend clones over
    /// and over.
    static let rowBudget = 16_384

    private var walks: [Key: Walk] = [:]
    /// Keys from the oldest remembered; a key forgotten is removed here too.
    private var order: [Key] = []
    /// Rows of the walks and links kept.
    private var rows = 0

    /// The walk table's columns, in the order `fill` binds them.
    static let columns = "seq, cp, ent, id, via, pent, pid, ver"

    /// Writes a remembered walk back to the walk table; `columns` are its parameters.
    static let fill = """
        INSERT INTO \(PostgreSQLGraphCopySQL.walkTable) (\(columns)) SELECT * FROM \
        unnest($1::int8[], $2::int8[], $3::int8[], $4::int8[], $5::int8[], $6::int8[], $7::int8[], $8::int8[])
        """

    /// Writes remembered links back to the linked table; `Links.columns` are its parameters.
    static let fillLinks = """
        INSERT INTO \(PostgreSQLGraphCopySQL.linkedTable) (ent, id, bump) SELECT * FROM unnest($1::int8[], $2::int8[], $3::int8[])
        """

    /// Reads the linked table back to remember it (`links(rows:counts:)`).
    static let readLinks = "SELECT ent::int8, id, bump::int8 FROM \(PostgreSQLGraphCopySQL.linkedTable)"

    /// Reads the walk table back to remember it (`walk(rows:…)`).
    static let read = "SELECT seq, cp::int8, ent::int8, id, via::int8, pent::int8, pid, ver FROM \(PostgreSQLGraphCopySQL.walkTable)"

    subscript(key: Key) -> Walk? { walks[key] }

    mutating func remember(_ walk: Walk, for key: Key) {
        guard walk.rows <= Self.rowLimit, (walk.links?.rows ?? 0) <= Self.rowLimit else { return }
        forget(key)
        walks[key] = walk
        order.append(key)
        rows += walk.size
        while rows > Self.rowBudget, let oldest = order.first { forget(oldest) }
    }

    mutating func forget(_ key: Key) {
        guard let walk = walks.removeValue(forKey: key) else { return }
        rows -= walk.size
        order.removeAll { $0 == key }
    }

    /// Rows kept, for tests of the bound.
    var keptRows: Int { rows }

    /// A walk from the rows `read` answered and what the walk statement answered.
    static func walk(rows result: PostgreSQLResult, objects: [Int: Int], mayAppend: Set<Int>) -> Walk {
        var notNull = [[Int64]](repeating: [], count: 5)
        var nullable = [[PostgreSQLValue]](repeating: [], count: 3)
        for column in 0..<5 { notNull[column].reserveCapacity(result.rowCount) }
        for column in 0..<3 { nullable[column].reserveCapacity(result.rowCount) }
        result.forEachRow { row in
            for column in 0..<5 { notNull[column].append(row.int64(column)) }
            for column in 0..<3 { nullable[column].append(row.optionalInt64(5 + column).map(PostgreSQLValue.int8) ?? .null) }
        }
        let columns = notNull.map(PostgreSQLValue.int8Array) + nullable.map { PostgreSQLValue.array(element: .int8, $0) }
        return Walk(columns: columns, objects: objects, rows: result.rowCount, mayAppend: mayAppend)
    }

    /// Links from the rows `readLinks` answered and the linked objects counted per entity.
    static func links(rows result: PostgreSQLResult, counts: [Int: Int]) -> Links {
        var columns = [[Int64]](repeating: [], count: 3)
        result.forEachRow { row in
            for column in 0..<3 { columns[column].append(row.int64(column)) }
        }
        return Links(columns: columns.map(PostgreSQLValue.int8Array), counts: counts, rows: result.rowCount)
    }
}
