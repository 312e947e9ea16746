import Foundation

/// Objects whose record changed during a save, so each gets exactly one version bump at the end
/// however many edits reached it — one UPDATE per entity, not one per object. Backend-neutral:
/// each store runs the bumps in its own dialect from `batches`.
struct TouchedObjects {
    private var ids: [String: Set<Int64>] = [:]
    /// Keys of blobs a delete or an update took a reference from: the save's last step deletes
    /// those nothing refers to any more (docs/architecture.md#shared-blobs).
    var droppedBlobs: Set<Data> = []

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

    /// Entities in name order, ids sorted: concurrent saves (on PostgreSQL) lock rows in the same
    /// order, which keeps deadlocks between them rare.
    var batches: [(entity: String, ids: [Int64])] {
        ids.sorted(by: { $0.key < $1.key }).compactMap { entity, set in set.isEmpty ? nil : (entity, set.sorted()) }
    }
}
