import ClonerModel
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

@Suite struct ObjectTests {
    @Test(arguments: StoreBackendKind.available) func everyAttributeTypeRoundTrips(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let uuid = UUID()
        let blob = Data((0...255).map { UInt8($0) } + [0, 0])
        let noteID = try store.write { context in
            try context.save(
                ChangeSet(inserts: [
                    ChangeSet.Insert(
                        entity: "Note",
                        attributes: [
                            "id": .uuid(uuid), "name": .string("héllo \u{1F600} 'quoted'"), "createDate": .date(millisecondsSince1970: 1_700_000_000_123),
                            "index": .integer(Int64.min), "data": .binary(blob),
                        ])
                ])
            ).insertedIDs[0]
        }
        let itemID = try store.write { context in
            try context.save(
                ChangeSet(inserts: [
                    ChangeSet.Insert(
                        entity: "Item",
                        attributes: [
                            "score": .double(-0.125), "done": .boolean(true), "extra": .json(#"{"a":[1,2,{"b":null}]}"#),
                        ])
                ])
            ).insertedIDs[0]
        }
        let note = try #require(try store.read { try $0.fetchObject(entity: "Note", id: noteID) })
        #expect(note.attributes["id"] == .uuid(uuid))
        #expect(note.attributes["name"] == .string("héllo \u{1F600} 'quoted'"))
        #expect(note.attributes["createDate"] == .date(millisecondsSince1970: 1_700_000_000_123))
        #expect(note.attributes["index"] == .integer(Int64.min))
        #expect(note.attributes["data"] == .binary(blob))
        #expect(note.version == 1)
        let item = try #require(try store.read { try $0.fetchObject(entity: "Item", id: itemID) })
        #expect(item.attributes["score"] == .double(-0.125))
        #expect(item.attributes["done"] == .boolean(true))
        #expect(item.attributes["extra"] == .json(#"{"a":[1,2,{"b":null}]}"#))
        #expect(item.attributes["name"] == .null)
    }

    @Test(arguments: StoreBackendKind.available) func missingRequiredAttributeAndWrongTypeAreRejected(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        #expect {
            try store.write { try $0.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Note", attributes: ["name": .string("x")])])) }
        } throws: { error in
            guard case StoreError.invalidValue("Note", "id", let reason) = error else { return false }
            return reason.contains("required")
        }
        #expect {
            try store.write { try $0.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Item", attributes: ["score": .string("high")])])) }
        } throws: { error in
            guard case StoreError.invalidValue("Item", "score", let reason) = error else { return false }
            return reason.contains("expected a double")
        }
        #expect(try store.read { try $0.fetchIDs(FetchRequest(entity: "Item")) }.isEmpty)
    }

    @Test(arguments: StoreBackendKind.available) func orderedToManyKeepsOrderAndInverse(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let ids = try store.write { context in
            try context.save(
                ChangeSet(inserts: [
                    StoreFixtures.note("n"),
                    ChangeSet.Insert(entity: "Item", attributes: ["name": .string("a")]),
                    ChangeSet.Insert(entity: "Item", attributes: ["name": .string("b")]),
                    ChangeSet.Insert(entity: "Item", attributes: ["name": .string("c")]),
                ])
            ).insertedIDs
        }
        let (note, a, b, c) = (ids[0], ids[1], ids[2], ids[3])
        try store.write {
            _ = try $0.save(
                ChangeSet(updates: [ChangeSet.Update(entity: "Note", id: note, relationships: ["items": .toMany([.existing(c), .existing(a), .existing(b)])])]))
        }
        var fetched = try #require(try store.read { try $0.fetchObject(entity: "Note", id: note) })
        #expect(fetched.relationships["items"] == .toMany([c, a, b]))
        #expect(fetched.version == 2)
        #expect(try store.read { try $0.fetchObject(entity: "Item", id: a)?.relationships["note"] } == .toOne(note))

        // Joining from the to-one side appends at the end.
        let d = try store.write { context in
            try context.save(
                ChangeSet(inserts: [ChangeSet.Insert(entity: "Item", attributes: ["name": .string("d")], relationships: ["note": .toOne(.existing(note))])])
            ).insertedIDs[0]
        }
        fetched = try #require(try store.read { try $0.fetchObject(entity: "Note", id: note) })
        #expect(fetched.relationships["items"] == .toMany([c, a, b, d]))
        #expect(fetched.version == 3, "the note's list changed, so its version moved")

        // Reorder and drop one: the dropped item loses its note.
        try store.write {
            _ = try $0.save(ChangeSet(updates: [ChangeSet.Update(entity: "Note", id: note, relationships: ["items": .toMany([.existing(d), .existing(b)])])]))
        }
        #expect(try store.read { try $0.fetchObject(entity: "Note", id: note)?.relationships["items"] } == .toMany([d, b]))
        #expect(try store.read { try $0.fetchObject(entity: "Item", id: c)?.relationships["note"] } == .toOne(nil))
    }

    @Test(arguments: StoreBackendKind.available) func manyToManyIsConsistentFromBothSides(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let ids = try store.write { context in
            try context.save(
                ChangeSet(inserts: [
                    ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("red")]),
                    ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("blue")]),
                    ChangeSet.Insert(entity: "Item", attributes: [:], relationships: ["tags": .toMany([.inserted(0), .inserted(1)])]),
                    ChangeSet.Insert(entity: "Item", attributes: [:], relationships: ["tags": .toMany([.inserted(1)])]),
                ])
            ).insertedIDs
        }
        let (red, blue, first, second) = (ids[0], ids[1], ids[2], ids[3])
        let tags = try store.read { try $0.fetchObjects(entity: "Tag", ids: [red, blue]) }
        #expect(tags[0].relationships["items"] == .toMany([first]))
        #expect(tags[1].relationships["items"] == .toMany([first, second]), "ordered on the Tag side: in the order the links were made")
        // Editing from the other side is seen from this one.
        try store.write {
            _ = try $0.save(ChangeSet(updates: [ChangeSet.Update(entity: "Tag", id: blue, relationships: ["items": .toMany([.existing(second)])])]))
        }
        #expect(try store.read { try $0.fetchObject(entity: "Item", id: first)?.relationships["tags"] } == .toMany([red]))
        #expect(try store.read { try $0.fetchObject(entity: "Item", id: first)?.version } == 2)
    }

    @Test(arguments: StoreBackendKind.available) func oneToOneMovesTheDestinationFromItsPreviousOwner(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let ids = try store.write { context in
            try context.save(
                ChangeSet(inserts: [
                    StoreFixtures.note("one"), StoreFixtures.note("two"),
                    ChangeSet.Insert(entity: "NoteDescription", attributes: ["text": .string("d")], relationships: ["note": .toOne(.inserted(0))]),
                ])
            ).insertedIDs
        }
        #expect(try store.read { try $0.fetchObject(entity: "Note", id: ids[0])?.relationships["noteDescription"] } == .toOne(ids[2]))
        try store.write {
            _ = try $0.save(ChangeSet(updates: [ChangeSet.Update(entity: "Note", id: ids[1], relationships: ["noteDescription": .toOne(.existing(ids[2]))])]))
        }
        let notes = try store.read { try $0.fetchObjects(entity: "Note", ids: [ids[0], ids[1]]) }
        #expect(notes[0].relationships["noteDescription"] == .toOne(nil))
        #expect(notes[1].relationships["noteDescription"] == .toOne(ids[2]))
        #expect(try store.read { try $0.fetchObject(entity: "NoteDescription", id: ids[2])?.relationships["note"] } == .toOne(ids[1]))
    }

    @Test(arguments: StoreBackendKind.available) func danglingReferenceIsRejectedAndNothingIsWritten(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        #expect {
            try store.write {
                try $0.save(
                    ChangeSet(inserts: [ChangeSet.Insert(entity: "Item", attributes: ["name": .string("x")], relationships: ["note": .toOne(.existing(999))])]))
            }
        } throws: { error in
            guard case StoreError.danglingReference("Item", "note", 999) = error else { return false }
            return true
        }
        #expect(try store.read { try $0.fetchIDs(FetchRequest(entity: "Item")) }.isEmpty)
    }

    @Test(arguments: StoreBackendKind.available) func versionConflictIsDetected(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let id = try store.write { try $0.save(ChangeSet(inserts: [StoreFixtures.note("v")])).insertedIDs[0] }
        try store.write {
            _ = try $0.save(ChangeSet(updates: [ChangeSet.Update(entity: "Note", id: id, expectedVersion: 1, attributes: ["name": .string("v2")])]))
        }
        #expect {
            try store.write {
                try $0.save(ChangeSet(updates: [ChangeSet.Update(entity: "Note", id: id, expectedVersion: 1, attributes: ["name": .string("stale")])]))
            }
        } throws: { error in
            guard case StoreError.versionConflict("Note", id, 1, 2) = error else { return false }
            return true
        }
        #expect(try store.read { try $0.fetchObject(entity: "Note", id: id)?.attributes["name"] } == .string("v2"))
    }

    @Test(arguments: StoreBackendKind.available) func uniqueViolationNamesTheAttribute(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        _ = try store.write { try $0.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("dup")])])) }
        #expect {
            try store.write { try $0.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("dup")])])) }
        } throws: { error in
            guard case StoreError.uniqueViolation("Tag", "name") = error else { return false }
            return true
        }
    }

    @Test(arguments: StoreBackendKind.available) func cascadeDeletesTheWholeOwnedGraphAndNullifiesTheRest(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let ids = try store.write { context in
            try context.save(
                ChangeSet(inserts: [
                    StoreFixtures.note("doomed"),
                    ChangeSet.Insert(entity: "NoteDescription", attributes: [:], relationships: ["note": .toOne(.inserted(0))]),
                    ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("t")]),
                    ChangeSet.Insert(entity: "Item", attributes: [:], relationships: ["note": .toOne(.inserted(0)), "tags": .toMany([.inserted(2)])]),
                    ChangeSet.Insert(entity: "Item", attributes: [:], relationships: ["note": .toOne(.inserted(0))]),
                ])
            ).insertedIDs
        }
        // Tag.items is `deny`: while an item links the tag, the tag cannot go.
        #expect {
            try store.write { try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Tag", id: ids[2])])) }
        } throws: { error in
            guard case StoreError.deleteDenied("Tag", ids[2], "items") = error else { return false }
            return true
        }
        let tagVersion = try store.read { try $0.version(entity: "Tag", id: ids[2]) }
        let result = try store.write { try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Note", id: ids[0])])) }
        #expect(result.deletedCounts == ["Note": 1, "NoteDescription": 1, "Item": 2])
        let tag = try #require(try store.read { try $0.fetchObject(entity: "Tag", id: ids[2]) })
        #expect(tag.relationships["items"] == .toMany([]))
        #expect(tag.version == tagVersion! + 1, "the tag's list changed")
        // With no item left, the deny rule lets the tag go.
        try store.write { _ = try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Tag", id: ids[2])])) }
        #expect(try store.read { try $0.fetchIDs(FetchRequest(entity: "Tag")) }.isEmpty)
    }

    /// A delete sends its cascade set to each statement as id lists: on SQLite it creates no
    /// table (no DDL per request), and entities the cascade does not reach get no statement.
    @Test func sqliteDeleteCreatesNoTable() throws {
        let place = try StorePlace(.sqlite)
        let store = try StoreFixtures.openStore(place)
        let ids = try store.write { context in
            try context.save(
                ChangeSet(inserts: [
                    StoreFixtures.note("doomed"),
                    ChangeSet.Insert(entity: "Item", attributes: [:], relationships: ["note": .toOne(.inserted(0))]),
                ])
            ).insertedIDs
        }
        // The connection's work tables (the clone's) are made once when it opens: compare the
        // temporary tables around the delete.
        func temporaryTables(_ connection: SQLiteConnection) throws -> [String] {
            var tables: [String] = []
            try connection.forEachRow("SELECT name FROM sqlite_temp_schema WHERE type = 'table' ORDER BY name") { tables.append($0.string(0)) }
            return tables
        }
        let (result, before, after) = try store.write { context in
            let before = try temporaryTables(context.sqliteConnection)
            let result = try context.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Note", id: ids[0])]))
            return (result, before, try temporaryTables(context.sqliteConnection))
        }
        #expect(result.deletedCounts == ["Note": 1, "Item": 1])
        #expect(after == before, "temporary tables before the delete: \(before), after: \(after)")
    }

    @Test(arguments: StoreBackendKind.available) func nullifyAndNoActionClearReferencesToTheDeletedObject(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let ids = try store.write { context in
            try context.save(
                ChangeSet(inserts: [
                    ChangeSet.Insert(entity: "Card", attributes: ["title": .string("a")]),
                    ChangeSet.Insert(
                        entity: "Card", attributes: ["title": .string("b")], relationships: ["next": .toOne(.inserted(0)), "links": .toMany([.inserted(0)])]),
                    StoreFixtures.note("parent"),
                    ChangeSet.Insert(entity: "Item", attributes: [:], relationships: ["note": .toOne(.inserted(2))]),
                ])
            ).insertedIDs
        }
        _ = try store.write { try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Card", id: ids[0])])) }
        let survivor = try #require(try store.read { try $0.fetchObject(entity: "Card", id: ids[1]) })
        #expect(survivor.relationships["next"] == .toOne(nil))
        #expect(survivor.relationships["links"] == .toMany([]))
        // Deleting an item (nullify on Item.note) removes it from the note's list.
        _ = try store.write { try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Item", id: ids[3])])) }
        #expect(try store.read { try $0.fetchObject(entity: "Note", id: ids[2])?.relationships["items"] } == .toMany([]))
    }

    @Test(arguments: StoreBackendKind.available) func cascadeThroughADeepChainAndACycle(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let model = DataModel(entities: [
            EntityDescription(
                name: "Folder", attributes: [AttributeDescription(name: "name", type: .string, isOptional: true)],
                relationships: [
                    RelationshipDescription(name: "children", destination: "Folder", isToMany: true, inverseName: "parent", deleteRule: .cascade),
                    RelationshipDescription(name: "parent", destination: "Folder", inverseName: "children"),
                    RelationshipDescription(name: "buddy", destination: "Folder", deleteRule: .cascade),
                ])
        ])
        let store = try place.open(model: model)
        let depth = 3000
        try store.write { context in
            var inserts = [ChangeSet.Insert(entity: "Folder", attributes: ["name": .string("root")])]
            for level in 1..<depth {
                inserts.append(ChangeSet.Insert(entity: "Folder", attributes: [:], relationships: ["parent": .toOne(.inserted(level - 1))]))
            }
            // The deepest folder's buddy is the root: a cycle through a cascade rule.
            inserts[depth - 1].relationships["buddy"] = .toOne(.inserted(0))
            _ = try context.save(ChangeSet(inserts: inserts))
        }
        let result = try store.write { try $0.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Folder", id: 1)])) }
        #expect(result.deletedCounts["Folder"] == depth)
        #expect(try store.read { try $0.fetchIDs(FetchRequest(entity: "Folder")) }.isEmpty)
    }

    @Test(arguments: StoreBackendKind.available) func fetchFiltersSortsAndPagesWithACursor(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        try store.write { context in
            var inserts: [ChangeSet.Insert] = []
            for index in 0..<25 {
                var insert = StoreFixtures.note(index % 3 == 0 ? "fizz" : "n\(index % 5)", index: Int64(index % 4))
                if index % 7 == 0 { insert.attributes["name"] = .null }
                inserts.append(insert)
            }
            _ = try context.save(ChangeSet(inserts: inserts))
        }
        let fizz = try store.read { try $0.fetchIDs(FetchRequest(entity: "Note", predicates: [.init("name", .string("fizz"))])) }
        #expect(fizz == [4, 7, 10, 13, 16, 19, 25], "ids 1 and 22 are fizz but were nulled")
        // Walk all pages with a mixed-direction order and compare with one big ordered fetch.
        let order = [FetchRequest.Sort("name"), FetchRequest.Sort("index", ascending: false)]
        let all = try store.read { try $0.fetchIDs(FetchRequest(entity: "Note", sort: order)) }
        var paged: [Int64] = []
        var after: Int64?
        for _ in 0..<20 {
            let page = try store.read { try $0.fetchIDs(FetchRequest(entity: "Note", sort: order, limit: 4, after: after)) }
            paged += page
            guard page.count == 4 else { break }
            after = page.last
        }
        #expect(all.count == 25)
        #expect(paged == all)
        #expect(throws: StoreError.self) { try store.read { try $0.fetchIDs(FetchRequest(entity: "Note", predicates: [.init("colour", .string("x"))])) } }
    }

    @Test(arguments: StoreBackendKind.available) func readersRunBesideAWriter(_ kind: StoreBackendKind) async throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        _ = try store.write { try $0.save(ChangeSet(inserts: [StoreFixtures.note("seed")])) }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var count = 0
                    for round in 0..<50 {
                        if worker == 0 {
                            _ = try store.write { try $0.save(ChangeSet(inserts: [StoreFixtures.note("w\(round)")])) }
                        } else {
                            count += try store.read { try $0.fetchIDs(FetchRequest(entity: "Note")) }.count
                        }
                    }
                    return count
                }
            }
            for try await _ in group {}
        }
        #expect(try store.read { try $0.fetchIDs(FetchRequest(entity: "Note")) }.count == 51)
    }
}

@Suite struct WriterWaitTests {
    @Test func aWriteQueuedBehindALongOneGivesUpAndReadsGoOn() throws {
        let directory = try TemporaryDirectory()
        let store = try IncrementalStore(path: directory.path("busy.sqlite"), model: StoreFixtures.notesModel(), writerWait: .milliseconds(200))
        _ = try store.write { try $0.save(ChangeSet(inserts: [StoreFixtures.note("seed")])) }
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            _ = try? store.write { context in
                holding.signal()
                release.wait()
                return try context.save(ChangeSet(inserts: [StoreFixtures.note("long")]))
            }
            finished.signal()
        }.start()
        holding.wait()
        #expect {
            try store.write { try $0.save(ChangeSet(inserts: [StoreFixtures.note("queued")])) }
        } throws: { error in
            guard case StoreError.busy = error else { return false }
            return true
        }
        #expect(try store.read { try $0.fetchIDs(FetchRequest(entity: "Note")) }.count == 1, "a read does not wait for the writer")
        release.signal()
        finished.wait()
        #expect(try store.read { try $0.fetchIDs(FetchRequest(entity: "Note")) }.count == 2)
    }
}
