/// Objects whose record changed during a save, so each gets exactly one version bump at the end
/// however many edits reached it — one UPDATE per entity, not one per object.
struct TouchedObjects {
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

    func bumpVersions(_ connection: SQLiteConnection) throws {
        for (entity, set) in ids.sorted(by: { $0.key < $1.key }) where !set.isEmpty {
            try connection.execute(
                "UPDATE \(quoted(entity)) SET \"_version\" = \"_version\" + 1 WHERE \"_id\" IN (\(SQLiteStoreContext.idsFromArray))",
                [SQLiteStoreContext.idArray(set.sorted())])
        }
    }
}
