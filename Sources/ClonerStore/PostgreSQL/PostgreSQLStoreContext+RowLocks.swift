import ClonerModel

/// The row locks a save takes before it reads what it decides on. Writes run READ COMMITTED
/// (`PostgreSQLStore`): each statement sees what was committed before it began, so a version
/// check, a delete rule or an ordered list's end read from a row another writer may still change
/// would decide on a stale row. Locking first makes every later read of these rows the last
/// committed state, held until this transaction ends; a writer reaching the same rows waits.
/// The locks go out ahead of the save's next statement, in its round trip.
extension PostgreSQLStoreContext {
    /// How a save holds an object it names.
    enum RowLockMode: Int, Comparable {
        /// Deleted, or updated in a key column (one a unique index covers): no other writer may
        /// link to it or change it until this commits. A key update needs this mode anyway, and
        /// taking it only at the UPDATE would wait behind a linker's `FOR KEY SHARE` while that
        /// linker waits for this transaction — a deadlock.
        case exclusive = 0
        /// Updated in other columns, or linked (its list and version change): no other writer may
        /// change it, while foreign-key checks of new rows pointing at it go on.
        case update = 1

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

        var clause: String {
            switch self {
            case .exclusive: "FOR UPDATE"
            case .update: "FOR NO KEY UPDATE"
            }
        }
    }

    /// Whether `attributes` set a column a unique index covers (PostgreSQL's key columns).
    private static func setsKey(_ attributes: Dictionary<String, AttributeValue>.Keys, of entity: EntityDescription) -> Bool {
        attributes.contains { name in
            entity.attribute(named: name)?.isUnique == true || entity.uniqueTogether.contains { $0.contains(name) }
        }
    }

    /// Locks every existing object `changes` updates, deletes or links, in one statement (an object
    /// named twice in its strongest mode first): entity by
    /// entity in tag order, each entity's ids ascending, so two saves naming overlapping objects
    /// take them in the same order and cannot deadlock on them. Rows already gone are skipped —
    /// the checks that follow report them as they would without the lock.
    func lockRows(of changes: ChangeSet) throws {
        var wanted: [Int: [RowLockMode: Set<Int64>]] = [:]
        func add(_ entity: String, _ id: Int64, _ mode: RowLockMode) {
            wanted[schema.entityTag(entity), default: [:]][mode, default: []].insert(id)
        }
        func addTargets(of entity: EntityDescription, _ edits: [String: ChangeSet.RelationshipEdit]) {
            for (name, edit) in edits {
                guard let relationship = entity.relationship(named: name) else { continue }
                switch edit {
                case .toOne(.existing(let id)?): add(relationship.destination, id, .update)
                case .toMany(let references):
                    for case .existing(let id) in references { add(relationship.destination, id, .update) }
                default: break
                }
            }
        }
        for insert in changes.inserts {
            guard let entity = model.entity(named: insert.entity) else { continue }
            addTargets(of: entity, insert.relationships)
        }
        for update in changes.updates {
            guard let entity = model.entity(named: update.entity) else { continue }
            add(entity.name, update.id, Self.setsKey(update.attributes.keys, of: entity) ? .exclusive : .update)
            addTargets(of: entity, update.relationships)
        }
        for delete in changes.deletes where model.entity(named: delete.entity) != nil {
            add(delete.entity, delete.id, .exclusive)
        }
        guard !wanted.isEmpty else { return }

        var ctes: [String] = []
        var values: [PostgreSQLValue] = []
        for tag in wanted.keys.sorted() {
            let table = quoted(model.entities[tag].name)
            for (mode, ids) in wanted[tag]!.sorted(by: { $0.key < $1.key }) {
                values.append(Self.idArray(ids.sorted()))
                ctes.append(
                    "l\(ctes.count) AS (SELECT 1 FROM \(table) t WHERE t.\"_id\" = ANY($\(values.count)) "
                        + "ORDER BY t.\"_id\" \(mode.clause) OF t)")
            }
        }
        let counted = ctes.indices.map { "(SELECT count(*) FROM l\($0))" }.joined(separator: " + ")
        // Nothing waits for the count: the locks go out with the save's next statement, which
        // then reads the rows locked.
        try connection.performBeforeNextCommand("WITH " + ctes.joined(separator: ", ") + " SELECT " + counted, values: values)
    }
}
