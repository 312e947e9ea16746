import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Clones, `copies`, PATCHes and deletes keep every blob reference valid and leave no blob that
/// nothing refers to (docs/architecture.md#shared-blobs), on both backends — alone and with many
/// clients at once.
@Suite struct SharedBlobCloneTests {
    static func blobCount(_ fixture: CloneFixture) throws -> Int64 {
        if fixture.backend == .postgreSQL { return try fixture.postgreSQLCount("_cloner_blobs") }
        return try fixture.store.read { try $0.sqliteConnection.scalar("SELECT count(*) FROM \"_cloner_blobs\"")?.int64 ?? -1 }
    }

    /// A note of `items` items whose memos each carry one attachment of `attachment` bytes.
    static func noteWithAttachments(_ fixture: CloneFixture, items: Int, attachment: Data) throws -> CloneFixture.SampleNote {
        let sample = try fixture.makeSampleNote(items: items)
        try fixture.insert(
            sample.memos.map { memo in
                ChangeSet.Insert(entity: "Attachment", attributes: ["image": .binary(attachment)], relationships: ["memo": .toOne(.existing(memo))])
            })
        return sample
    }

    @Test(arguments: StoreBackendKind.available) func clonesAndCopiesAddReferencesOnly(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let attachment = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 13) })
        let sample = try Self.noteWithAttachments(fixture, items: 5, attachment: attachment)
        #expect(try Self.blobCount(fixture) == 2, "the note's data and one attachment blob for five attachments")

        let one = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note))
        let many = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, copies: 10))
        #expect(one.created["Attachment"] == 5 && many.created["Attachment"] == 50)
        #expect(try Self.blobCount(fixture) == 2, "a clone writes no blob")
        for clone in [one.clone.id] + (many.clones ?? []).map(\.id) {
            #expect(try fixture.object("Note", clone).attributes["data"] == .binary(Data([1, 2, 3])))
        }
        let attachments = try fixture.ids("Attachment")
        #expect(attachments.count == 5 + 5 + 50)
        for id in attachments.prefix(7) { #expect(try fixture.object("Attachment", id).attributes["image"] == .binary(attachment)) }
        #expect(try fixture.store.read { try $0.checkBlobs(limit: 5) }.isEmpty)
    }

    @Test(arguments: StoreBackendKind.available) func setExcludeAndPatchWorkOnReferences(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 1)
        let replacement = Data("replacement".utf8)
        // `set` on the root stores the new value as a blob; the source keeps its own.
        let set = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, set: ["data": .binary(replacement)]))
        #expect(try fixture.object("Note", set.clone.id).attributes["data"] == .binary(replacement))
        #expect(try Self.blobCount(fixture) == 2)
        // Excluded at the root: the copy's value is null, and nothing is written.
        let excluded = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, exclude: ["data"]))
        #expect(try fixture.object("Note", excluded.clone.id).attributes["data"] == .null)

        // PATCH the first clone back to the source's value: `replacement` loses its only
        // reference and goes in the same transaction.
        _ = try fixture.store.write {
            try $0.save(
                ChangeSet(updates: [
                    ChangeSet.Update(entity: "Note", id: set.clone.id, attributes: ["data": .binary(Data([1, 2, 3]))])
                ]))
        }
        #expect(try Self.blobCount(fixture) == 1, "the replaced value's blob went with its last reference")
        #expect(try fixture.store.read { try $0.checkBlobs(limit: 5) }.isEmpty)
    }

    @Test(arguments: StoreBackendKind.available) func deletesAndCascadesTakeOnlyUnreferencedBlobs(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let shared = Data("shared attachment".utf8)
        let sample = try Self.noteWithAttachments(fixture, items: 3, attachment: shared)
        let own = Data("only the original".utf8)
        try fixture.insert([
            ChangeSet.Insert(
                entity: "Attachment", attributes: ["image": .binary(own)],
                relationships: ["memo": .toOne(.existing(sample.memos[0]))])
        ])
        let clone = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note))
        // The original goes (cascade: memos, attachments): its blobs stay for the clone.
        _ = try fixture.store.write { try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Note", id: sample.note)])) }
        #expect(try Self.blobCount(fixture) == 3, "all three blobs still have the clone's references")
        #expect(try fixture.store.read { try $0.checkBlobs(limit: 5) }.isEmpty)
        _ = try fixture.store.write { try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Note", id: clone.clone.id)])) }
        #expect(try Self.blobCount(fixture) == 0, "the cascade of the last note took every blob")
        #expect(try fixture.store.read { try $0.checkBlobs(limit: 5) }.isEmpty)
    }

    /// Many clients clone and delete notes whose attachments share one blob; whatever order the
    /// database runs them in, no clone or delete fails for the blob's sake, the blob exists
    /// exactly while something refers to it, and nothing dangles.
    @Test(arguments: StoreBackendKind.available) func concurrentClonesAndDeletesNeverLoseOrLeakABlob(_ backend: StoreBackendKind) async throws {
        let fixture = try CloneFixture(backend)
        let shared = Data("one blob for all".utf8)
        let seed = try Self.noteWithAttachments(fixture, items: 2, attachment: shared)
        var roots = [seed.note]
        for _ in 0..<7 { roots.append(try fixture.engine.clone(CloneRequest(entity: "Note", id: seed.note)).clone.id) }
        let engine = fixture.engine, store = fixture.store
        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for (client, root) in roots.enumerated() {
                group.addTask {
                    var failures: [String] = []
                    // Clone the client's note a few times, deleting each clone again, then the note.
                    for round in 0..<4 {
                        do {
                            let clone = try engine.clone(CloneRequest(entity: "Note", id: root))
                            if round % 2 == 0 {
                                _ = try store.write { try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Note", id: clone.clone.id)])) }
                            }
                        } catch {
                            failures.append("client \(client) round \(round): \(error)")
                        }
                    }
                    do {
                        _ = try store.write { try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Note", id: root)])) }
                    } catch {
                        failures.append("client \(client) delete: \(error)")
                    }
                    return failures
                }
            }
            var all: [String] = []
            for try await failures in group { all += failures }
            return all
        }
        #expect(failures.isEmpty, "\(failures)")
        let attachments = try fixture.ids("Attachment")
        #expect(attachments.count == roots.count * 2 * 2, "two surviving clones per client, two attachments each")
        #expect(try Self.blobCount(fixture) == 2)
        #expect(try fixture.store.read { try $0.checkBlobs(limit: 5) }.isEmpty)
        // Now everything goes: no blob may outlive its references.
        for note in try fixture.ids("Note") {
            _ = try fixture.store.write { try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Note", id: note)])) }
        }
        #expect(try Self.blobCount(fixture) == 0)
    }

    /// The race the sweep's locking is for: clients that write, clone, replace and delete one and
    /// the same value at once, so its blob keeps losing its last reference while another client
    /// is adding one. None fails, and at the end the blob is gone with its last reference.
    @Test(arguments: StoreBackendKind.available) func concurrentWritersOfOneValueNeverFailNorLeak(_ backend: StoreBackendKind) async throws {
        let fixture = try CloneFixture(backend)
        let value = Data("contended".utf8)
        let engine = fixture.engine, store = fixture.store
        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for client in 0..<8 {
                group.addTask {
                    var failures: [String] = []
                    for round in 0..<6 {
                        do {
                            let note = try store.write { context in
                                try context.save(
                                    ChangeSet(inserts: [
                                        ChangeSet.Insert(
                                            entity: "Note",
                                            attributes: [
                                                "id": .uuid(UUID()), "createDate": .date(millisecondsSince1970: 0), "data": .binary(value),
                                            ])
                                    ])
                                ).insertedIDs[0]
                            }
                            let clone = try engine.clone(CloneRequest(entity: "Note", id: note)).clone.id
                            _ = try store.write { try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Note", id: note)])) }
                            _ = try store.write { try $0.save(ChangeSet(updates: [ChangeSet.Update(entity: "Note", id: clone, attributes: ["data": .null])])) }
                            _ = try store.write {
                                try $0.save(ChangeSet(updates: [ChangeSet.Update(entity: "Note", id: clone, attributes: ["data": .binary(value)])]))
                            }
                            _ = try store.write { try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Note", id: clone)])) }
                        } catch {
                            failures.append("client \(client) round \(round): \(error)")
                        }
                    }
                    return failures
                }
            }
            var all: [String] = []
            for try await failures in group { all += failures }
            return all
        }
        #expect(failures.isEmpty, "\(failures)")
        #expect(try fixture.ids("Note").isEmpty)
        #expect(try Self.blobCount(fixture) == 0)
        #expect(try fixture.store.read { try $0.checkBlobs(limit: 5) }.isEmpty)
    }
}
