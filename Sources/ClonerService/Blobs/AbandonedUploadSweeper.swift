import ClonerConcurrency
import ClonerStore
import Foundation

/// Removes the pending blobs of uploads whose process died mid-way (a `PUT` of a binary value
/// writes its chunks under a pending key, in short transactions of their own, before the value is
/// complete). An upload is abandoned when it wrote no chunk between two sweeps: a live one moves
/// on far faster (the server cuts a body that makes no progress for the body read timeout, 30 s),
/// and sweeps run an hour apart. What a sweep saw is kept here, so no column or clock is needed in
/// the store, and any replica may remove another's dead upload.
final class AbandonedUploadSweeper: Sendable {
    private let store: IncrementalStore
    /// Pending uploads and their chunk counts at the last sweep.
    private let seen = LockedValue<[Data: Int64]>([:])

    init(store: IncrementalStore) {
        self.store = store
    }

    /// Removes the uploads that made no progress since the last sweep; answers how many.
    @discardableResult
    func sweep() throws -> Int {
        let pending = try store.read { try $0.pendingUploads() }
        let previous = seen.withLock { $0 }
        let abandoned = pending.filter { previous[$0.key] == $0.value }.keys.sorted { $0.lexicographicallyPrecedes($1) }
        if !abandoned.isEmpty {
            // One statement per abandoned upload, in one transaction: they are the rare leftovers
            // of a crash, not a hot path.
            try store.write { context in
                for key in abandoned { try context.discardUpload(key: key) }
            }
        }
        seen.withLock { $0 = pending.filter { !abandoned.contains($0.key) } }
        return abandoned.count
    }
}
