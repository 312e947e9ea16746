/// Objects whose record changed during a PostgreSQL save, so each gets exactly one version bump
/// at the end however many edits reached it — one UPDATE per entity, not one per object (the
/// SQLite store's `TouchedObjects`, bumping through a PostgreSQL connection).
struct PostgreSQLTouchedObjects {
    private var ids: [String: Set<Int64>] = [:]

    mutating func insert(_ entity: String, _ id: Int64?) {
        guard let id else { return }
        ids[entity, default: []].insert(id)
    }

    mutating func insert<S: Sequence>(_ entity: String, contentsOf more: S) where S.Element == Int64 {
        ids[entity, default: []].formUnion(more)
    }

    mutating func remove(_ entity: String, _ id: Int64) {
        ids[entity]?.remove(id)
    }

    /// Entities in name order, ids sorted: concurrent saves lock rows in the same order, which
    /// keeps deadlocks between them rare.
    func bumpVersions(_ context: PostgreSQLStoreContext) throws {
        for (entity, set) in ids.sorted(by: { $0.key < $1.key }) where !set.isEmpty {
            try context.run("UPDATE \(quoted(entity)) SET \"_version\" = \"_version\" + 1 WHERE \"_id\" = ANY($1)",
                            [PostgreSQLStoreContext.idArray(set.sorted())])
        }
    }
}
