import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Synchronization
import Testing

/// The clone on PostgreSQL beside SQLite: the same answers, many copies in one set-based copy,
/// and all-or-nothing when the session dies mid-clone.
@Suite(.enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
struct PostgreSQLCloneTests {
    /// Everything a clone made, by old id, with rebuilt values (UUIDs, clone time) left out.
    private static func snapshot(_ fixture: CloneFixture, _ result: CloneResult) throws -> [String] {
        var lines: [String] = []
        for (entity, map) in (result.ids ?? [:]).sorted(by: { $0.key < $1.key }) {
            for (old, new) in map.sorted(by: { $0.key < $1.key }) {
                let object = try fixture.object(entity, new)
                let attributes = object.attributes.filter { !["id", "createDate", "noteID"].contains($0.key) }
                    .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                let relationships = object.relationships.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                lines.append("\(entity) \(old)->\(new) v\(object.version) \(attributes) \(relationships)")
            }
        }
        return lines
    }

    @Test func theSameCloneGivesTheSameAnswerOnBothBackends() throws {
        var answers: [[String]] = []
        var results: [CloneResult] = []
        for backend in [StoreBackendKind.sqlite, .postgreSQL] {
            let fixture = try CloneFixture(backend)
            let tags = try fixture.makeTags(["home", "work", "misc"])
            let sample = try fixture.makeSampleNote(items: 12, tags: tags)
            _ = try fixture.engine.clone(CloneRequest(entity: "Item", id: sample.items[3]))  // rule 7 appends on the original
            let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, returnIDs: true))
            results.append(result)
            var lines = try Self.snapshot(fixture, result)
            lines.append("original items \(try fixture.toMany("Note", sample.note, "items"))")
            lines.append("tag versions \(try tags.map { try fixture.object("Tag", $0).version })")
            lines.append("tag memos \(try tags.map { try fixture.toMany("Tag", $0, "memos") })")
            answers.append(lines)
        }
        #expect(results[0].created == results[1].created)
        #expect(results[0].linked == results[1].linked)
        #expect(results[0].clone == results[1].clone)
        #expect(results[0].ids == results[1].ids)
        #expect(answers[0] == answers[1])
    }

    @Test func manyCopiesInOneSetBasedCopy() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let tags = try fixture.makeTags(["shared"])
        let sample = try fixture.makeSampleNote(items: 4, tags: tags)
        var plan = try fixture.engine.plan(CloneRequest(entity: "Note", id: sample.note, returnIDs: true)).copy
        plan.copies = 3
        plan.perCopyRootValues = [["name": .string("Class A")], [:], ["name": .string("Class C")]]
        let result = try fixture.store.write { try $0.copyGraph(plan, now: Date(), progress: GraphCopyProgress()) }
        #expect(result.cloneIDs.count == 3 && Set(result.cloneIDs).count == 3)
        #expect(result.cloneIDs == result.cloneIDs.sorted(), "clones in copy order")
        #expect(result.created["Note"] == 3 && result.created["Item"] == 12 && result.created["Memo"] == 12)
        #expect(result.linked == ["Tag": 1])
        #expect(result.ids?.count == 3)
        let names = try result.cloneIDs.map { try fixture.object("Note", $0).attributes["name"] }
        #expect(names == [.string("Class A"), .string("Groceries"), .string("Class C")])
        var uuids: Set<AttributeValue> = []
        for (copy, clone) in result.cloneIDs.enumerated() {
            let note = try fixture.object("Note", clone)
            uuids.insert(note.attributes["id"]!)
            let items = try fixture.toMany("Note", clone, "items")
            #expect(items == sample.items.map { result.ids![copy]["Item"]![$0]! }, "copy \(copy) has its own items, in order")
            for item in items {
                #expect(try fixture.object("Item", item).attributes["noteID"] == note.attributes["id"], "followParent per copy")
            }
            let memos = try fixture.toMany("Note", clone, "memos")
            #expect(memos == sample.memos.map { result.ids![copy]["Memo"]![$0]! })
        }
        #expect(uuids.count == 3, "UUIDs rebuilt per copy")
        #expect(Set(try fixture.toMany("Tag", tags[0], "memos")).count == 4 * 4, "the shared tag lists every copy's memos")
    }

    /// The session running a large clone is terminated by the server mid-copy (as when the
    /// service is killed -9 and its connection drops): afterwards the clone is whole or absent.
    @Test func aCloneWhoseSessionDiesIsWholeOrAbsent() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(items: 4_000)
        let admin = try PostgreSQLConnection(uri: fixture.database!.uri)
        let job = try fixture.engine.start(CloneRequest(entity: "Note", id: sample.note))
        var terminated = false
        let deadline = Date().addingTimeInterval(30)
        while !terminated && Date() < deadline && job.result == nil && job.status != .failed {
            let rows = try admin.query(
                """
                SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() \
                AND state = 'active' AND query LIKE 'INSERT INTO%'
                """)
            if rows.rowCount > 0 {
                _ = try admin.query("SELECT pg_terminate_backend($1::int4)", [.int8(rows[0].int64(0))])
                terminated = true
            }
        }
        job.wait()
        let notes = try fixture.ids("Note")
        let items = try fixture.postgreSQLCount("Item"), memos = try fixture.postgreSQLCount("Memo")
        if notes.count == 1 {
            #expect(terminated && job.status == .failed)
            #expect(items == 4_000 && memos == 4_000, "nothing of the clone is left")
        } else {
            #expect(notes.count == 2)
            #expect(items == 8_000 && memos == 8_000, "the clone is whole")
        }
        // The pool's next transaction works on a fresh session.
        let again = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note))
        #expect(again.created["Item"] == 4_000)
    }

    /// A small clone's statements find rows by index, whatever the size of the store's tables: a
    /// session keeps the plans its first clone made, and a hash join there read a whole table at
    /// every later clone (the note's insert read every note), a cost that grew with the store.
    @Test func aSmallCloneReadsNoStoreTableWhole() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(items: 3, tags: try fixture.makeTags(["shared"]))
        _ = try fixture.makeSampleNote(name: "Large", items: 1_500)
        try fixture.insert(
            (0..<1_500).map {
                ChangeSet.Insert(
                    entity: "Note",
                    attributes: [
                        "id": .uuid(UUID()), "name": .string("note \($0)"), "createDate": .date(millisecondsSince1970: 1_600_000_000_000),
                        "index": .integer(Int64($0)),
                    ])
            })
        let plan = try fixture.engine.plan(CloneRequest(entity: "Note", id: sample.note)).copy
        for _ in 0..<3 {
            let scanned = try fixture.store.write { context in
                // Rows read by scanning each table, counted by the session: the counts of its
                // earlier transactions may not have gone to the statistics yet, so the difference.
                func rowsScanned() throws -> [String: Int64] {
                    var rows: [String: Int64] = [:]
                    try context.postgreSQLConnection.query(
                        "SELECT relname::text, coalesce(seq_tup_read, 0) FROM pg_stat_xact_user_tables WHERE schemaname = 'public'"
                    ).forEachRow { rows[$0.string(0)] = $0.int64(1) }
                    return rows
                }
                let before = try rowsScanned()
                _ = try context.copyGraph(plan, now: Date(), progress: GraphCopyProgress())
                return try rowsScanned().merging(before.mapValues { -$0 }, uniquingKeysWith: +)
            }
            for table in ["Note", "Item", "Memo", "ItemData"] {
                #expect((scanned[table] ?? 0) < 100, "rows of \(table) a clone read by scanning it: \(scanned)")
            }
        }
    }

    /// Each small clone leaves its rows dead in the session's work tables (emptied by `DELETE`,
    /// never vacuumed), and every later scan reads them: the tables are truncated once the rows
    /// left pass a bound, so 400 clones on one session do not leave a walk table of 400 clones.
    @Test func aSessionsWorkTablesStaySmallOverManyClones() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(items: 3, tags: try fixture.makeTags(["shared"]))
        let plan = try fixture.engine.plan(CloneRequest(entity: "Note", id: sample.note)).copy
        var largest: Int64 = 0
        for _ in 0..<400 {
            let pages = try fixture.store.write { context in
                _ = try context.copyGraph(plan, now: Date(), progress: GraphCopyProgress())
                // The session's own walk table, dead rows included.
                return try context.postgreSQLConnection.query("SELECT pg_relation_size('pg_temp.\"_clone_walk\"') / 8192")[0].int64(0)
            }
            largest = max(largest, pages)
        }
        #expect(largest <= 8, "pages of the walk table at most: \(largest)")
    }

    /// A large clone truncates, after its commit, the work tables its rows filled past the
    /// bound — its map — and leaves the few linked rows (two tags), the empty token table and the
    /// walk table, which a walk straight into the map leaves empty, to the next clone's `DELETE`:
    /// each table truncated is file work, empty or not. A truncation gives the table a new file,
    /// which is how the test tells.
    @Test func aLargeCloneTruncatesOnlyTheWorkTablesItFilled() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(items: 600, tags: try fixture.makeTags(["a", "b"]))
        let plan = try fixture.engine.plan(CloneRequest(entity: "Note", id: sample.note)).copy
        // The session and the file of each of its work tables, read in a transaction of its own.
        func files() throws -> (session: Int64, files: [String: Int64]) {
            try fixture.store.write { context in
                let connection = context.postgreSQLConnection
                var files: [String: Int64] = [:]
                try connection.query(
                    "SELECT relname::text, pg_relation_filenode(oid)::int8 FROM pg_class WHERE relnamespace = pg_my_temp_schema() AND relkind = 'r'"
                ).forEachRow { files[$0.string(0)] = $0.int64(1) }
                return (try connection.query("SELECT pg_backend_pid()::int8")[0].int64(0), files)
            }
        }
        _ = try fixture.store.write { try $0.copyGraph(plan, now: Date(), progress: GraphCopyProgress()) }
        for _ in 0..<2 {
            let before = try files()
            let created = try fixture.store.write { try $0.copyGraph(plan, now: Date(), progress: GraphCopyProgress()) }
            // Past the thousand objects up to which a clone runs prepared and counts as small.
            #expect(created.created.values.reduce(0, +) > 1_000)
            let after = try files()
            try #require(before.session == after.session, "the clones ran on one session")
            let truncated = Set(after.files.keys.filter { after.files[$0] != before.files[$0] })
            #expect(truncated == ["_clone_map"], "tables with a new file: \(truncated.sorted())")
            #expect(after.files.keys.contains("_clone_linked") && after.files.keys.contains("_clone_walk_token"))
        }
    }

    /// A root with more objects one edge away than a small clone may have is known large before
    /// any walk: the first walk, which stops at a thousand rows to tell a small clone from a large
    /// one, writes none (the walk into the map does the walking), where it wrote a thousand and
    /// one. A root with a few objects is walked first, whole.
    @Test func aRootWithAThousandObjectsOneEdgeAwayIsNotWalkedFirst() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let large = try fixture.makeSampleNote(name: "Large", items: 600)
        let small = try fixture.makeSampleNote(name: "Small", items: 3)
        for note in [large.note, small.note] {
            let plan = try fixture.engine.plan(CloneRequest(entity: "Note", id: note)).copy
            let (created, walkRows) = try fixture.store.write { context in
                let created = try context.copyGraph(plan, now: Date(), progress: GraphCopyProgress())
                return (created, try context.postgreSQLConnection.query("SELECT count(*)::int8 FROM pg_temp.\"_clone_walk\"")[0].int64(0))
            }
            #expect(created.created["Item"] == (note == large.note ? 600 : 3))
            if note == large.note {
                #expect(walkRows == 0, "walk table rows after cloning the large note")
            } else {
                // A row per arrival: at least one per object.
                #expect(walkRows >= Int64(created.created.values.reduce(0, +)), "walk table rows after cloning the small note")
            }
        }
    }

    /// The first walk runs with little room for sorts and hashes (its recursion's table of rows
    /// seen is allocated whole, sized by the planner's guess up to that room), and gives the
    /// session's room back after it: the rest of a small clone, its statements and the
    /// transaction's own after it, sort and hash in the session's `work_mem`, not in the walk's.
    @Test func aSmallCloneGivesTheSessionsWorkMemoryBackAfterItsFirstWalk() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(items: 3)
        let plan = try fixture.engine.plan(CloneRequest(entity: "Note", id: sample.note)).copy
        for _ in 0..<2 {
            let (before, after) = try fixture.store.write { context in
                let connection = context.postgreSQLConnection
                let before = try connection.query("SELECT current_setting('work_mem')")[0].string(0)
                let created = try context.copyGraph(plan, now: Date(), progress: GraphCopyProgress())
                #expect(created.created["Item"] == 3)
                return (before, try connection.query("SELECT current_setting('work_mem')")[0].string(0))
            }
            #expect(after == before, "work_mem after a small clone: \(after), before it: \(before)")
            #expect(after != "256kB")
        }
    }

    /// A small clone locks nothing of its source: an edit of the note, not yet committed, does
    /// not make it wait, and it copies the note as it was before the edit — the three items the
    /// walk found, never the note with a fourth. The edit, in turn, commits after the clone.
    @Test func aCloneBesideAnUncommittedEditCopiesTheSourceBeforeIt() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(items: 3)
        let store = fixture.store, note = sample.note
        let saved = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), committed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? store.write { context in
                let item = ChangeSet.Insert(
                    entity: "Item", attributes: ["name": .string("late"), "noteID": .null], relationships: ["note": .toOne(.existing(note))])
                _ = try context.save(ChangeSet(inserts: [item]))
                saved.signal()
                release.wait()
            }
            committed.signal()
        }
        saved.wait()
        let job = try fixture.engine.start(CloneRequest(entity: "Note", id: note))
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            job.wait()
            done.signal()
        }
        let finished = done.wait(timeout: .now() + 30) == .success
        release.signal()
        committed.wait()
        #expect(finished, "the clone finished while the edit of its source was still open")
        let result = try #require(job.result)
        #expect(result.created["Item"] == 3, "items of the clone: \(String(describing: result.created["Item"]))")
        #expect(try fixture.toMany("Note", result.clone.id, "items").count == 3)
        #expect(try fixture.toMany("Note", note, "items").count == 4, "the source has the item it gained")
    }

    /// An edit committed while a small clone copies: an item is cloned (its copy joins the
    /// note's ordered list, so the clone locks the note), and while the clone, past its walk,
    /// waits for that lock, the item gains a second ItemData in an edit that commits. The clone's
    /// check of the source's versions, after its last read, finds the item changed; the clone
    /// runs again (walking afresh, after the edit) and copies the item as it is after the edit —
    /// never the item's new row with the one ItemData the walk found before it. The edit did not
    /// wait for the clone. Two copies take the other way through the copier (statement by
    /// statement, the writes in a savepoint), with the same check.
    @Test(arguments: [1, 2]) func anEditCommittedDuringACloneIsCopiedAsItIsAfterIt(copies: Int) throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(items: 3)
        let store = fixture.store, item = sample.items[0]
        let blocker = try PostgreSQLConnection(uri: fixture.database!.uri)
        try blocker.execute("BEGIN")
        _ = try blocker.query("SELECT 1 FROM \"Note\" WHERE \"_id\" = $1 FOR SHARE", [.int8(sample.note)])
        let job = try fixture.engine.start(CloneRequest(entity: "Item", id: item, copies: copies))
        let waiting = try Self.waitForLockWait(fixture, statementLike: "%FOR NO KEY UPDATE%")
        let edited = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? store.write { context in
                let data = ChangeSet.Insert(
                    entity: "ItemData", attributes: ["createDate": .date(millisecondsSince1970: 1_600_000_000_000), "value": .double(9)],
                    relationships: ["item": .toOne(.existing(item))])
                _ = try context.save(ChangeSet(inserts: [data]))
            }
            edited.signal()
        }
        let editDidNotWait = edited.wait(timeout: .now() + 30) == .success
        try blocker.execute("COMMIT")
        job.wait()
        #expect(waiting, "the clone waited on the note's lock")
        #expect(editDidNotWait, "the edit committed while the clone was in flight")
        let result = try #require(job.result, "the clone failed: \(String(describing: job.error))")
        #expect(result.created["ItemData"] == 2 * copies, "item data of the clone: \(String(describing: result.created["ItemData"]))")
        for copy in result.clones ?? [result.clone] { #expect(try fixture.toMany("Item", copy.id, "itemDatas").count == 2) }
        #expect(try fixture.toMany("Item", item, "itemDatas").count == 2, "the source has the item data it gained")
    }

    /// A clone holds no lock on the objects it links until it steps their versions, with its
    /// commit: here the tag its memos link is being taken off them and deleted (not yet
    /// committed) while the clone copies, and the clone runs beside that edit until the step,
    /// where it waits. The edit commits first; the copies' links to the tag then fail their
    /// foreign key at the clone's commit, and the clone runs again and copies the note as it is
    /// after the edit, linking nothing — where a failed clone is what the foreign key alone gives.
    /// The same when the session remembers the note's walk and links from a clone before: the
    /// links it reuses were not found again, and the foreign key is what tells.
    @Test(arguments: [false, true]) func aLinkedObjectDeletedDuringACloneIsNotLinked(clonedBefore: Bool) throws {
        let fixture = try CloneFixture(.postgreSQL)
        let tag = try fixture.makeTags(["doomed"])[0]
        let sample = try fixture.makeSampleNote(items: 3, tags: [tag])
        let store = fixture.store
        if clonedBefore {  // dry runs: copies would link the tag too, and deny its delete
            for _ in 0..<2 { #expect(try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, dryRun: true)).linked["Tag"] == 1) }
        }
        let deleted = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), committed = DispatchSemaphore(value: 0)
        let editError = Mutex<(any Error)?>(nil)
        DispatchQueue.global().async {
            do {
                try store.write { context in
                    // A tag's memos deny its delete: the edit unlinks them first.
                    let unlink = sample.memos.map { ChangeSet.Update(entity: "Memo", id: $0, relationships: ["tags": .toMany([])]) }
                    _ = try context.save(ChangeSet(updates: unlink, deletes: [ChangeSet.Delete(entity: "Tag", id: tag)]))
                    deleted.signal()
                    release.wait()
                }
            } catch {
                editError.withLock { $0 = error }
                deleted.signal()
            }
            committed.signal()
        }
        try #require(deleted.wait(timeout: .now() + 30) == .success)
        try #require(editError.withLock { $0 } == nil, "the edit failed: \(String(describing: editError.withLock { $0 }))")
        let job = try fixture.engine.start(CloneRequest(entity: "Note", id: sample.note))
        let waiting = try Self.waitForLockWait(fixture, statementLike: "%UPDATE \"Tag\" SET%")
        release.signal()
        #expect(committed.wait(timeout: .now() + 30) == .success)
        job.wait()
        #expect(editError.withLock { $0 } == nil, "the edit failed: \(String(describing: editError.withLock { $0 }))")
        #expect(waiting, "the clone waited on the deleted tag at its version step")
        let result = try #require(job.result, "the clone failed: \(String(describing: job.error))")
        #expect(result.created["Memo"] == 3 && result.created["Item"] == 3)
        #expect(result.linked["Tag"] == nil, "linked: \(result.linked)")
        let memos = try fixture.toMany("Note", result.clone.id, "memos")
        #expect(memos.count == 3)
        for memo in memos { #expect(try fixture.toMany("Memo", memo, "tags").isEmpty) }
    }

    /// A large clone (over a thousand rows of walk, walked a second time straight into its map)
    /// keeps the object limit: a note of 1,202 objects (about 2,000 rows of walk, its item data
    /// and memos each reached twice) is refused under a limit one below its size — walked to the
    /// end, since the rows pass the limit before the objects do — and under 1,100, and neither
    /// that nor a dry run takes an id of any table; at its size it is copied whole, every item
    /// data with its item, the items in the source's order.
    @Test func aLargeCloneKeepsTheObjectLimitAndTakesNoIDsWhenRefused() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(name: "Large", items: 400)
        let objects = 2 + 3 * 400
        let connection = try PostgreSQLConnection(uri: fixture.database!.uri)
        func lastIDs() throws -> [Int64?] {
            let row = try connection.query(
                "SELECT "
                    + ["Note", "NoteDescription", "Item", "ItemData", "Memo"].map {
                        "pg_sequence_last_value(pg_get_serial_sequence('\"\($0)\"', '_id'))"
                    }.joined(separator: ", "))[0]
            return (0..<5).map { row.optionalInt64($0) }
        }
        let before = try lastIDs(), rows = try fixture.rowCounts()
        for limit in [objects - 1, 1_100] {
            #expect {
                try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, maximumObjects: limit))
            } throws: { error in
                guard case CloneError.tooLarge(let found, limit) = error else { return false }
                return found > limit
            }
        }
        let dryRun = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, dryRun: true, maximumObjects: objects))
        #expect(dryRun.totalCreated == objects)
        #expect(try lastIDs() == before, "ids taken by clones refused or dry")
        #expect(try fixture.rowCounts() == rows)

        let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note, returnIDs: true, maximumObjects: objects))
        #expect(result.created == ["Note": 1, "NoteDescription": 1, "Item": 400, "ItemData": 400, "Memo": 400])
        let map = try #require(result.ids)
        for (index, item) in sample.items.enumerated() where index % 97 == 0 {
            let copy = try #require(map["Item"]?[item])
            #expect(try fixture.toMany("Item", copy, "itemDatas") == [try #require(map["ItemData"]?[sample.itemDatas[index]])])
        }
        #expect(try fixture.toMany("Note", result.clone.id, "items") == sample.items.map { map["Item"]?[$0] ?? -1 }, "in the source's order")
    }

    /// A tree of folders cannot be walked by its ways (each level is one more), so a large one
    /// walks into the map recursively: 1,231 folders copied, each under its parent's copy, the
    /// children in their order.
    @Test func aLargeTreeIsWalkedRecursivelyIntoTheMap() throws {
        let folders = """
            { "entities": [ { "name": "Folder", "attributes": [ { "name": "name", "type": "string" } ],
                "relationships": [
                  { "name": "parent", "destination": "Folder", "inverse": "children" },
                  { "name": "children", "destination": "Folder", "toMany": true, "ordered": true, "inverse": "parent",
                    "deleteRule": "cascade" } ] } ] }
            """
        let fixture = try CloneFixture(modelJSON: folders, .postgreSQL)
        var inserts = [ChangeSet.Insert(entity: "Folder", attributes: ["name": .string("root")])]
        for branch in 0..<30 {
            let parent = inserts.count
            inserts.append(
                ChangeSet.Insert(entity: "Folder", attributes: ["name": .string("b\(branch)")], relationships: ["parent": .toOne(.inserted(0))]))
            inserts += (0..<40).map { leaf in
                ChangeSet.Insert(
                    entity: "Folder", attributes: ["name": .string("b\(branch).\(leaf)")], relationships: ["parent": .toOne(.inserted(parent))])
            }
        }
        let ids = try fixture.insert(inserts)
        let result = try fixture.engine.clone(CloneRequest(entity: "Folder", id: ids[0], returnIDs: true))
        #expect(result.created == ["Folder": 1_231])
        let map = try #require(result.ids?["Folder"])
        let branch = ids[1 + 7 * 41]
        #expect(try fixture.toOne("Folder", try #require(map[branch]), "parent") == result.clone.id)
        let leaves = try fixture.toMany("Folder", branch, "children")
        #expect(try fixture.toMany("Folder", try #require(map[branch]), "children") == leaves.map { map[$0] ?? -1 })
    }

    /// A walk that passes the object limit's rows with fewer objects than the limit (each leaf
    /// below reached from both A and B before the leaves only D reaches) is walked again to its
    /// end, and the objects counted there before any id is taken: 1,505 objects under a limit of
    /// 1,504 are refused without a new leaf id; under 1,505 they are copied.
    @Test func aWalkOfObjectsReachedTwiceIsCountedToItsEndBeforeIDsAreTaken() throws {
        let fixture = try CloneFixture(modelJSON: CloneParentChoiceTests.model, .postgreSQL)
        var inserts = CloneParentChoiceTests.parents
        inserts += (0..<1_000).map { _ in
            ChangeSet.Insert(entity: "Leaf", attributes: [:], relationships: ["a": .toOne(.inserted(1)), "b": .toOne(.inserted(2))])
        }
        inserts += (0..<500).map { _ in ChangeSet.Insert(entity: "Leaf", attributes: [:], relationships: ["d": .toOne(.inserted(4))]) }
        let root = try fixture.insert(inserts)[0]
        let connection = try PostgreSQLConnection(uri: fixture.database!.uri)
        func lastLeafID() throws -> Int64? {
            try connection.query("SELECT pg_sequence_last_value(pg_get_serial_sequence('\"Leaf\"', '_id'))")[0].optionalInt64(0)
        }
        let before = try lastLeafID()
        #expect {
            try fixture.engine.clone(CloneRequest(entity: "Root", id: root, maximumObjects: 1_504))
        } throws: { error in
            guard case CloneError.tooLarge(let found, 1_504) = error else { return false }
            return found == 1_505
        }
        #expect(try lastLeafID() == before, "a clone refused took leaf ids")
        let result = try fixture.engine.clone(CloneRequest(entity: "Root", id: root, maximumObjects: 1_505))
        #expect(result.created["Leaf"] == 1_500 && result.totalCreated == 1_505)
    }

    /// A large clone locks its source before it writes, comparing the versions its walk (straight
    /// into the map) read: here an edit of one item (an item data added, not yet committed) holds
    /// the item's row when the clone comes to lock it. The clone waits; the edit commits, stepping
    /// the item's version; the clone finds it moved, runs again and copies the item with both item
    /// data — never the item's row after the edit with the one item data its walk found before it.
    @Test func aLargeCloneWaitsForAnEditOfItsSourceAndCopiesItAfter() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(name: "Large", items: 400)
        let store = fixture.store, item = sample.items[7]
        let saved = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), committed = DispatchSemaphore(value: 0)
        DispatchQueue(label: "edit").async {
            _ = try? store.write { context in
                let data = ChangeSet.Insert(
                    entity: "ItemData", attributes: ["createDate": .date(millisecondsSince1970: 1_600_000_000_000), "value": .double(9)],
                    relationships: ["item": .toOne(.existing(item))])
                _ = try context.save(ChangeSet(inserts: [data]))
                saved.signal()
                release.wait()
            }
            committed.signal()
        }
        saved.wait()
        let job = try fixture.engine.start(CloneRequest(entity: "Note", id: sample.note, returnIDs: true))
        let waiting = try Self.waitForLockWait(fixture, statementLike: "%FOR SHARE%")
        release.signal()
        committed.wait()
        job.wait()
        #expect(waiting, "the clone waited on the item's lock")
        let result = try #require(job.result, "the clone failed: \(String(describing: job.error))")
        #expect(result.created["ItemData"] == 401)
        let copy = try #require(result.ids?["Item"]?[item])
        #expect(try fixture.toMany("Item", copy, "itemDatas").count == 2)
    }

    /// A small clone waits on the server twice: once for the root's check with the walk, whose
    /// counts decide how the rest runs, and once for the rest in one pipeline. The session's next
    /// clone of the same source waits once: the walk it remembers goes out with the rest — and
    /// is not even sent when the session's last clone left that walk (and its links) in the work
    /// tables. A missing root is still reported as missing, before anything the walk did.
    @Test func aSmallCloneTakesTwoRoundTripsAndARepeatedOneTakesOne() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let tags = try fixture.makeTags(["shared"])
        let sample = try fixture.makeSampleNote(items: 3, tags: tags)
        let other = try fixture.makeSampleNote(name: "Other", items: 3, tags: tags)
        let plan = try fixture.engine.plan(CloneRequest(entity: "Note", id: sample.note)).copy
        func counted(_ root: Int64) throws -> (result: GraphCopyResult, roundTrips: Int, commands: Int) {
            var plan = plan
            plan.rootID = root
            return try fixture.store.write { context in
                let connection = context.postgreSQLConnection
                let ((result, roundTrips), commands) = try connection.countingCommands {
                    try connection.countingRoundTrips { try context.copyGraph(plan, now: Date(), progress: GraphCopyProgress()) }
                }
                return (result, roundTrips, commands)
            }
        }
        _ = try counted(sample.note)  // the session's statements prepared once, out of the count
        let walked = try counted(other.note)
        #expect(walked.result.created["Item"] == 3 && walked.result.linked["Tag"] == 1)
        #expect(walked.roundTrips == 2, "round trips of a 5-object clone: \(walked.roundTrips)")
        let refilled = try counted(sample.note)  // remembered, but the table holds the other walk
        #expect(refilled.result.created["Item"] == 3 && refilled.result.linked["Tag"] == 1)
        #expect(refilled.roundTrips == 1, "round trips of a 5-object clone repeated: \(refilled.roundTrips)")
        let kept = try counted(sample.note)
        #expect(kept.result.created["Item"] == 3 && kept.result.linked["Tag"] == 1)
        // Neither the walk nor its links nor their token written back, nor the links found and
        // counted again.
        #expect(kept.roundTrips == 1 && kept.commands == refilled.commands - 3, "\(kept) against \(refilled)")

        var missing = plan
        missing.rootID = sample.note + 1_000
        let error = #expect(throws: StoreError.self) {
            try fixture.store.write { try $0.copyGraph(missing, now: Date(), progress: GraphCopyProgress()) }
        }
        guard case .notFound(let entity, let id)? = error else {
            Issue.record("a missing root answered \(String(describing: error))")
            return
        }
        #expect(entity == "Note" && id == sample.note + 1_000)
    }

    /// A walk the session remembers is only used while the source's versions say it is still the
    /// walk: each edit below (an object joining, one renamed, one leaving, one joining a level
    /// down) is in the next clone, which finds the remembered walk out of date, runs again and
    /// walks. The clone after it, of the unchanged source, uses the walk again and copies the same.
    @Test func aRememberedWalkFollowsEveryEditOfTheSource() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(items: 3, tags: try fixture.makeTags(["shared"]))
        func clone() throws -> (items: [String], created: [String: Int]) {
            let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note))
            let items = try fixture.toMany("Note", result.clone.id, "items").map { item -> String in
                guard case .string(let name)? = try fixture.object("Item", item).attributes["name"] else { return "?" }
                return name
            }
            return (items, result.created)
        }
        func save(_ changes: ChangeSet) throws { _ = try fixture.store.write { try $0.save(changes) } }
        let first = try clone()
        #expect(first.items.count == 3)
        #expect(try clone().items == first.items)

        try save(
            ChangeSet(inserts: [
                ChangeSet.Insert(entity: "Item", attributes: ["name": .string("joined")], relationships: ["note": .toOne(.existing(sample.note))])
            ]))
        let joined = try clone()
        #expect(joined.items == first.items + ["joined"])
        #expect(try clone().items == joined.items)

        try save(ChangeSet(updates: [ChangeSet.Update(entity: "Item", id: sample.items[0], attributes: ["name": .string("renamed")])]))
        let renamed = try clone()
        #expect(renamed.items.first == "renamed" && renamed.items.count == 4)

        try save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Item", id: sample.items[1])]))
        let left = try clone()
        #expect(left.items.count == 3 && !left.items.contains(first.items[1]))

        let before = try clone().created["ItemData"] ?? 0
        try save(
            ChangeSet(inserts: [
                ChangeSet.Insert(
                    entity: "ItemData", attributes: ["createDate": .date(millisecondsSince1970: 1_600_000_000_000)],
                    relationships: ["item": .toOne(.existing(sample.items[2]))])
            ]))
        #expect(try clone().created["ItemData"] == before + 1)
        #expect(try clone().created["ItemData"] == before + 1)
    }

    /// Clones of one template from several threads while another thread edits it as fast as the
    /// clones follow, each edit renaming every item to its generation and adding or removing one
    /// (a remembered walk is out of date after every edit): every clone is
    /// one generation whole — all its items of that name, as many as that generation had — never
    /// a walk of one generation with the rows of another, whether its session walked or reused a
    /// walk; and every edit goes through.
    @Test func clonesOfATemplateEditedWithoutPauseAreEachOneWholeGeneration() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(items: 3)
        let store = fixture.store, engine = fixture.engine, note = sample.note
        let initial = try Set(sample.items.map { try fixture.object("Item", $0).attributes["name"] })
        @Sendable func items(_ id: Int64) throws -> [Int64] {
            guard case .toMany(let ids)? = try store.read({ try $0.fetchObject(entity: "Note", id: id) })?.relationships["items"] else { return [] }
            return ids
        }
        @Sendable func name(_ item: Int64) throws -> AttributeValue? {
            try store.read { try $0.fetchObject(entity: "Item", id: item) }?.attributes["name"]
        }
        let generations = 40
        let edited = Atomic<Bool>(false)
        let clones = Atomic<Int>(0)
        let problems = Mutex<[String]>([])
        let group = DispatchGroup()
        for worker in 0..<5 {
            // A queue of its own for each: the global queue's threads are as many as the cores,
            // and one of them may be the test's own, waiting below.
            DispatchQueue(label: "worker \(worker)").async(group: group) {
                guard worker > 0 else {
                    var added: Int64?
                    for generation in 1...generations {
                        do {
                            let value = AttributeValue.string("g\(generation)")
                            var changes = ChangeSet(updates: try items(note).map { ChangeSet.Update(entity: "Item", id: $0, attributes: ["name": value]) })
                            if let extra = added {
                                changes.updates.removeAll { $0.id == extra }
                                changes.deletes = [ChangeSet.Delete(entity: "Item", id: extra)]
                            } else {
                                changes.inserts = [
                                    ChangeSet.Insert(entity: "Item", attributes: ["name": value], relationships: ["note": .toOne(.existing(note))])
                                ]
                            }
                            let saved = try store.write { try $0.save(changes) }
                            added = added == nil ? saved.insertedIDs.first : nil
                        } catch {
                            problems.withLock { $0.append("edit \(generation): \(error)") }
                        }
                        // The next edit once a clone has finished since this one (or after a second):
                        // edits as fast as clones can follow, never so fast that every walk a clone
                        // makes is overtaken before its lock, which on a loaded machine (the whole
                        // suite beside it) kept clones running again past the writer wait.
                        let made = clones.load(ordering: .relaxed)
                        let deadline = Date().addingTimeInterval(1)
                        while clones.load(ordering: .relaxed) == made && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
                    }
                    edited.store(true, ordering: .releasing)
                    return
                }
                while !edited.load(ordering: .acquiring) {
                    do {
                        let result = try engine.clone(CloneRequest(entity: "Note", id: note))
                        let names = try items(result.clone.id).map(name)
                        clones.add(1, ordering: .relaxed)
                        if Set(names) == initial && names.count == 3 { continue }
                        guard case .string(let first)? = names.first, first.hasPrefix("g"), let generation = Int(first.dropFirst()),
                            names.allSatisfy({ $0 == names.first }), names.count == (generation % 2 == 1 ? 4 : 3)
                        else {
                            problems.withLock { $0.append("a clone mixed generations: \(names)") }
                            continue
                        }
                    } catch {
                        problems.withLock { $0.append("clone: \(error)") }
                    }
                }
            }
        }
        #expect(group.wait(timeout: .now() + 120) == .success, "edits and clones finished")
        #expect(problems.withLock { $0 }.isEmpty, "\(problems.withLock { Array($0.prefix(5)) })")
        #expect(clones.load(ordering: .relaxed) >= 4, "clones made while the template was edited")
        let names = try items(note).map(name)
        #expect(names.count == 3 && names.allSatisfy { $0 == .string("g\(generations)") }, "the template after every edit: \(names)")
    }

    /// The links a session reuses with a remembered walk follow every edit of what the source
    /// links: a second tag, then none; and the shared tag's version steps once per clone that
    /// links it, whether the links were found or reused.
    @Test func rememberedLinksFollowEditsOfTheSourcesLinks() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let tags = try fixture.makeTags(["first", "second"])
        let sample = try fixture.makeSampleNote(items: 2, tags: [tags[0]])
        func clone() throws -> (linked: Int?, memoTags: [Int64]) {
            let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note))
            let memos = try fixture.toMany("Note", result.clone.id, "memos")
            return (result.linked["Tag"], try memos.flatMap { try fixture.toMany("Memo", $0, "tags") }.sorted())
        }
        func save(_ tagged: [Int64]) throws {
            let updates = sample.memos.map { ChangeSet.Update(entity: "Memo", id: $0, relationships: ["tags": .toMany(tagged.map { .existing($0) })]) }
            _ = try fixture.store.write { try $0.save(ChangeSet(updates: updates)) }
        }
        let versions = { try tags.map { try fixture.object("Tag", $0).version } }
        let before = try versions()
        for _ in 0..<3 { #expect(try clone().linked == 1) }
        #expect(try versions() == [before[0] + 3, before[1]], "one step of the first tag per clone")

        try save(tags)
        let stepped = try versions()
        for _ in 0..<3 {
            let both = try clone()
            #expect(both.linked == 2 && Set(both.memoTags) == Set(tags))
        }
        #expect(try versions() == [stepped[0] + 3, stepped[1] + 3])

        try save([])
        let untagged = try versions()
        for _ in 0..<3 {
            let none = try clone()
            #expect(none.linked == nil && none.memoTags.isEmpty)
        }
        #expect(try versions() == untagged, "no tag steps once the source links none")
    }

    /// Work tables a clone would keep are used only while the token beside them is the one this
    /// connection wrote: here the session's tables are made to hold another walk of the same
    /// note (its items gone, as a clone excluding them would leave it) with another token, as a
    /// transaction-pooling proxy could hand over. The next clone writes its walk again and
    /// copies the whole note.
    @Test func keptWorkTablesAreUsedOnlyUnderThisConnectionsToken() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(items: 3, tags: try fixture.makeTags(["shared"]))
        func items() throws -> Int {
            let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note))
            return try fixture.toMany("Note", result.clone.id, "items").count
        }
        for _ in 0..<3 { #expect(try items() == 3) }
        try fixture.store.write { context in
            let connection = context.postgreSQLConnection
            try connection.execute("DELETE FROM pg_temp.\"_clone_walk\" WHERE ent = \(fixture.store.schema.entityTag("Item"))")
            try connection.execute("UPDATE pg_temp.\"_clone_walk_token\" SET token = 42")
        }
        for _ in 0..<2 { #expect(try items() == 3) }
    }

    /// The work table keeps a walk for the next clone only once the transaction that wrote it
    /// commits: a clone of another source rolled back leaves the table as it was, and the clone
    /// after it copies its own source, not the walk the rolled-back one wrote.
    @Test func aRolledBackCloneLeavesTheWalkTableToTheOneBefore() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(items: 3)
        let other = try fixture.makeSampleNote(name: "Other", items: 2)
        struct Abandoned: Error {}
        let plan = try fixture.engine.plan(CloneRequest(entity: "Note", id: sample.note)).copy
        func copy(_ root: Int64, thenFail: Bool = false) throws -> GraphCopyResult {
            var plan = plan
            plan.rootID = root
            return try fixture.store.write { context in
                let result = try context.copyGraph(plan, now: Date(), progress: GraphCopyProgress())
                if thenFail { throw Abandoned() }
                return result
            }
        }
        // The items the copy really has, read back from the store.
        func copiedItems(_ root: Int64) throws -> Int {
            let result = try copy(root)
            #expect(result.cloneIDs.count == 1)
            return try result.cloneIDs.map { try fixture.toMany("Note", $0, "items").count }.reduce(0, +)
        }
        for _ in 0..<2 { #expect(try copiedItems(sample.note) == 3) }
        for _ in 0..<2 { #expect(throws: Abandoned.self) { _ = try copy(other.note, thenFail: true) } }
        for _ in 0..<2 {
            #expect(try copiedItems(other.note) == 2)
            #expect(try copiedItems(sample.note) == 3)
        }
        #expect(try fixture.toMany("Note", other.note, "items") == other.items, "the source unchanged")
    }

    /// The statements of a small clone are planned once per session, not at every clone: the work
    /// tables they read are emptied without invalidating their plans, and generic plans are used.
    /// A large clone in between is planned for its own rows and leaves its work tables empty.
    @Test(.enabled(if: PostgreSQLTestCluster.hasStatementStatistics, "needs pg_stat_statements"))
    func smallClonesReuseTheirPlans() throws {
        let fixture = try CloneFixture(.postgreSQL)
        let sample = try fixture.makeSampleNote(items: 3, tags: try fixture.makeTags(["shared"]))
        let large = try fixture.makeSampleNote(name: "Large", items: 1_500)
        let statistics = try PostgreSQLConnection(uri: fixture.database!.uri(password: nil, database: "postgres"))
        try statistics.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        let database = fixture.database!.name.replacingOccurrences(of: "'", with: "''")
        // The most plans and calls of one statement that reads the clone's map.
        func mapStatements() throws -> (plans: Int64, calls: Int64) {
            let row = try statistics.query(
                """
                SELECT coalesce(max(s.plans), 0), coalesce(max(s.calls), 0) FROM pg_stat_statements s \
                JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = '\(database)' AND s.query LIKE '%_clone_map%'
                """)[0]
            return (row.int64(0), row.int64(1))
        }
        for _ in 0..<3 { _ = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note)) }
        let before = try mapStatements()
        for round in 0..<24 {
            if round == 12 {
                let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: large.note))
                #expect(result.created["Item"] == 1_500)
            }
            let result = try fixture.engine.clone(CloneRequest(entity: "Note", id: sample.note))
            #expect(result.created["Item"] == 3)
        }
        let after = try mapStatements()
        #expect(after.calls - before.calls >= 24, "the statements were seen: \(before) → \(after)")
        // One plan per session the pool used, and one more after the large clone's TRUNCATE;
        // 24 or more when each clone plans again.
        #expect(after.plans - before.plans <= 8, "plans of a map statement over 24 small clones: \(after.plans - before.plans)")
    }

    /// Waits (up to 30 s) until a session of the fixture's database waits on a lock in a
    /// statement whose text is `LIKE` the pattern; false if none did.
    private static func waitForLockWait(_ fixture: CloneFixture, statementLike pattern: String) throws -> Bool {
        let admin = try PostgreSQLConnection(uri: fixture.database!.uri)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let waiting = try admin.query(
                """
                SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' \
                AND query LIKE $1
                """, [.text(pattern)])[0].int64(0)
            if waiting > 0 { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }
}
