import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// All or nothing, options, and concurrency.
@Suite struct CloneSafetyTests {
    @Test(arguments: StoreBackendKind.available) func dryRunCountsEqualTheRealCloneAndWriteNothing(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let tags = try fixture.makeTags(["x", "y", "z"])
        let sample = try fixture.makeSampleNote(items: 6, tags: tags)
        let before = try fixture.rowCounts()
        let dry = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, dryRun: true))
        #expect(try fixture.rowCounts() == before)
        #expect(dry.dryRun)
        let real = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note))
        #expect(dry.created == real.created)
        #expect(dry.linked == real.linked)
        #expect(dry.clone.id == real.clone.id, "the dry run names the id the clone gets")
        #expect(real.linked == ["Tag": 3])
    }

    /// A plan without an object limit (`Int.max`, as the benchmarks run) walks to the end of the
    /// graph; its row limit must not overflow.
    @Test(arguments: StoreBackendKind.available) func anUnlimitedCloneCopiesEverything(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 5)
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, maximumObjects: .max))
        #expect(result.created["Item"] == 5)
    }

    @Test(arguments: StoreBackendKind.available) func uniqueConflictRollsBackEverything(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 3)
        let originalID = try fixture.object("Note", sample.note).attributes["id"]!
        let before = try fixture.rowCounts()
        #expect {
            try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, set: ["id": originalID]))
        } throws: { error in
            guard case CloneError.conflict("Note", "id", true) = error else { return false }
            return true
        }
        #expect(try fixture.rowCounts() == before)
    }

    @Test func injectedFailureMidCloneLeavesNothingBehind() throws {
        let fixture = try CloneFixture(.sqlite)
        let sample = try fixture.makeSampleNote(items: 4)
        try fixture.insert(
            sample.memos.map { memo in
                ChangeSet.Insert(
                    entity: "Attachment", attributes: ["image": .binary(Data((0..<64).map { _ in UInt8.random(in: 0...255) }))],
                    relationships: ["memo": .toOne(.existing(memo))])
            })
        try fixture.sql(
            """
            CREATE TRIGGER fail_mid_clone BEFORE INSERT ON "Attachment" BEGIN SELECT RAISE(ABORT, 'injected failure'); END;
            """)
        let before = try fixture.rowCounts()
        #expect {
            try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note))
        } throws: { error in
            String(describing: error).contains("injected failure")
        }
        #expect(try fixture.rowCounts() == before, "the notes, items and memos written before the failure are gone")
        try fixture.sql("DROP TRIGGER fail_mid_clone")
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note))
        #expect(result.created["Attachment"] == 4, "the store is usable after the rollback")
    }

    /// The walk stops one object past the limit: a graph of 32 objects under a limit of 5 is
    /// refused having counted 6, not all 32 (a million-object graph is not walked to the end).
    @Test(arguments: StoreBackendKind.available) func limitIsCheckedBeforeWritingAndStopsTheWalk(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 10)
        let before = try fixture.rowCounts()
        #expect {
            try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, maximumObjects: 5))
        } throws: { error in
            guard case CloneError.tooLarge(let objects, 5) = error else { return false }
            return objects == 6
        }
        #expect(try fixture.rowCounts() == before)
        // Within the limit, the same graph is walked to its end and copied whole.
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, maximumObjects: 32))
        #expect(result.created.values.reduce(0, +) == 32)
    }

    @Test(arguments: StoreBackendKind.available) func badRequestsNameTheField(_ backend: StoreBackendKind) throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 1)
        let cases: [(CloneRequest, String)] = [
            (CloneRequest(entity: "Note", id: sample.note, exclude: ["colour"]), "exclude[0]"),
            (CloneRequest(entity: "Note", id: sample.note, exclude: ["items", "Nope.name"]), "exclude[1]"),
            (CloneRequest(entity: "Note", id: sample.note, exclude: ["Item.nope"]), "exclude[0]"),
            (CloneRequest(entity: "Note", id: sample.note, exclude: ["id"]), "exclude[0]"),
            (CloneRequest(entity: "Note", id: sample.note, set: ["name": .integer(3)]), "set.name"),
            (CloneRequest(entity: "Note", id: sample.note, set: ["items": .integer(3)]), "set.items"),
            (CloneRequest(entity: "Note", id: sample.note, set: ["template": .integer(999)]), "set.template"),
            (CloneRequest(entity: "Note", id: sample.note, set: ["ghost": .null]), "set.ghost"),
        ]
        for (request, field) in cases {
            #expect {
                try fixture.engine.clone(request)
            } throws: { error in
                guard case CloneError.invalidRequest(let named, _) = error else { return false }
                return named == field
            }
        }
        #expect {
            try fixture.engine.clone(CloneRequest(entity: "Note", id: 9999))
        } throws: { error in
            guard case CloneError.rootNotFound("Note", 9999) = error else { return false }
            return true
        }
    }

    @Test(arguments: StoreBackendKind.available) func concurrentClonesOfTheSameRootAllComplete(_ backend: StoreBackendKind) async throws {
        let fixture = try CloneFixture(backend)
        let sample = try fixture.makeSampleNote(items: 20)
        // Awaited through each job's completion, never by blocking a thread of the test's pool.
        let (finished, done) = AsyncStream.makeStream(of: String.self)
        let jobs = try (0..<6).map { _ in
            try fixture.engine.start(CloneRequest(entity: "Note", id: sample.note), completion: { job in done.yield(job.id) })
        }
        var finishedIDs: Set<String> = []
        for await id in finished {
            finishedIDs.insert(id)
            if finishedIDs.count == jobs.count { break }
        }
        #expect(finishedIDs == Set(jobs.map(\.id)))
        #expect(jobs.allSatisfy { $0.status == .succeeded })
        let clones = Set(jobs.compactMap { $0.result?.clone.id })
        #expect(clones.count == 6)
        for clone in clones {
            #expect(try fixture.toMany("Note", clone, "items").count == 20)
            #expect(try fixture.toMany("Note", clone, "memos").count == 20)
        }
        #expect(jobs.allSatisfy { $0.progress.planned == 62 && $0.progress.written == 62 })
        #expect(try fixture.ids("Note").count == 7)
    }

    /// A clone copies blob references, not bytes (docs/architecture.md#shared-blobs): 26
    /// attachments of 4 MiB (more than the 100 MiB the service may use) gain a second reference
    /// each, and the blob table does not grow.
    @Test func blobsLargerThanTheMemoryBudgetAreSharedNotCopied() throws {
        let fixture = try CloneFixture(.sqlite)
        let sample = try fixture.makeSampleNote(items: 2)
        for index in 0..<26 {
            var bytes = Data(repeating: UInt8(index), count: 4 << 20)
            bytes[0] = 0xff
            try fixture.insert([
                ChangeSet.Insert(
                    entity: "Attachment", attributes: ["image": .binary(bytes)],
                    relationships: ["memo": .toOne(.existing(sample.memos[0]))])
            ])
        }
        func count(_ sql: String) throws -> Int64? { try fixture.store.read { try $0.sqliteConnection.scalar(sql)?.int64 } }
        let blobs = try count("SELECT count(*) FROM \"_cloner_blobs\"")
        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, returnIDs: true))
        #expect(result.created["Attachment"] == 26)
        let memoClone = result.ids!["Memo"]![sample.memos[0]]!
        let same = try fixture.store.read { context in
            try context.sqliteConnection.scalar(
                """
                SELECT count(*) FROM "Attachment" a JOIN "Attachment" b ON a."image" = b."image" \
                WHERE a."memo" = ? AND b."memo" = ? AND a."_id" <> b."_id"
                """, [.integer(sample.memos[0]), .integer(memoClone)])?.int64
        }
        #expect(same == 26, "every clone refers to its original's blob")
        #expect(try count("SELECT count(*) FROM \"_cloner_blobs\"") == blobs, "no blob was written")
        #expect(try fixture.store.read { try $0.checkBlobs(limit: 5) }.isEmpty)
    }
}
