import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// The PostgreSQL store against the SQLite store's behaviour: the same scenarios on both
/// backends (`StoreBackendKind`), and the PostgreSQL-only concerns (NUL, foreign databases,
/// replicas preparing together, concurrent writers).
@Suite struct PostgreSQLStoreTests {
    @Test(arguments: StoreBackendKind.available) func extremeValuesRoundTripAlike(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try place.open()
        let uuid = UUID()
        let blob = Data((0...255).map { UInt8($0) } + [0, 0])
        let ids = try store.save(
            ChangeSet(inserts: [
                ChangeSet.Insert(
                    entity: "Note",
                    attributes: [
                        "id": .uuid(uuid), "name": .string("héllo \u{1F600} 'quoted'"), "createDate": .date(millisecondsSince1970: -1_700_000_000_123),
                        "index": .integer(Int64.min), "data": .binary(blob),
                    ]),
                ChangeSet.Insert(
                    entity: "Item", attributes: ["score": .double(-0.0), "done": .boolean(true), "extra": .json(#"{ "b":1,  "a":[1,2,{"b":null}] }"#)]),
                ChangeSet.Insert(entity: "Item", attributes: ["score": .double(.greatestFiniteMagnitude)]),
            ])
        ).insertedIDs
        #expect(ids == [1, 1, 2])
        let note = try #require(try store.object("Note", ids[0]))
        #expect(note.attributes["id"] == .uuid(uuid))
        #expect(note.attributes["name"] == .string("héllo \u{1F600} 'quoted'"))
        #expect(note.attributes["createDate"] == .date(millisecondsSince1970: -1_700_000_000_123))
        #expect(note.attributes["index"] == .integer(Int64.min))
        #expect(note.attributes["data"] == .binary(blob))
        #expect(note.version == 1)
        let item = try #require(try store.object("Item", ids[1]))
        guard case .double(let score)? = item.attributes["score"] else { Issue.record("score"); return }
        #expect(score == 0, "SQLite keeps -0.0 as 0, PostgreSQL as -0.0: equal either way")
        #expect(item.attributes["done"] == .boolean(true))
        #expect(item.attributes["extra"] == .json(#"{ "b":1,  "a":[1,2,{"b":null}] }"#), "JSON text kept exactly")
        #expect(item.attributes["name"] == .null)
        #expect(try store.object("Item", ids[2])?.attributes["done"] == .boolean(false), "the default")
    }

    /// A save's rows and updates go out with the statement after them: a create or an update read
    /// back in its transaction is the same on both stores, and on PostgreSQL two round trips
    /// before the COMMIT (the new ids, or the locks with the versions' read; then the writes with
    /// the read). A write
    /// that fails there fails the save as it would have alone, naming the attribute, and leaves
    /// nothing behind.
    @Test(arguments: StoreBackendKind.available) func aSavesWritesTravelWithItsReadBack(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try place.open()
        func counted<T>(_ context: any StoreContext, _ body: () throws -> T) rethrows -> (T, Int?) {
            guard kind == .postgreSQL else { return (try body(), nil) }
            let (result, roundTrips) = try context.postgreSQLConnection.countingRoundTrips(body)
            return (result, roundTrips)
        }
        let (created, createTrips) = try store.write { context in
            try counted(context) {
                let id = try context.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("red")])])).insertedIDs[0]
                return try context.fetchRecords(entity: "Tag", ids: [id])
            }
        }
        #expect(created.count == 1 && created.versions == [1])
        let id = created.ids[0]
        let (updated, updateTrips) = try store.write { context in
            try counted(context) {
                _ = try context.save(ChangeSet(updates: [ChangeSet.Update(entity: "Tag", id: id, expectedVersion: 1, attributes: ["name": .string("blue")])]))
                return try context.fetchRecords(entity: "Tag", ids: [id])
            }
        }
        #expect(updated.versions == [2])
        #expect(try store.object("Tag", id)?.attributes["name"] == .string("blue"))
        if kind == .postgreSQL {
            #expect(createTrips == 2, "a create read back: \(String(describing: createTrips)) round trips before its COMMIT")
            #expect(updateTrips == 2, "an update read back: \(String(describing: updateTrips)) round trips before its COMMIT")
        }
        #expect {
            try store.write { context in
                _ = try context.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("green")])]))
                _ = try context.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("blue")])]))
                return try context.fetchRecords(entity: "Tag", ids: [id])
            }
        } throws: { error in
            guard case StoreError.uniqueViolation(let entity, let attribute)? = error as? StoreError else { return false }
            return entity == "Tag" && attribute == "name"
        }
        #expect(try store.read { try $0.fetchRecords(entity: "Tag", ids: [1, 2, 3, 4]) }.ids == [id], "the failed save left nothing")
    }

    /// A record and its relationships stored elsewhere are read together: the same lists on both
    /// stores, for one record and for many (a repeated id repeated), and on PostgreSQL one round
    /// trip for a record with all its lists.
    @Test func recordsAndTheirListsReadAlikeAndTogether() throws {
        var answers: [[String]] = []
        for kind in StoreBackendKind.available {
            let place = try StorePlace(kind)
            let store = try place.open()
            let ids = try store.save(
                ChangeSet(inserts: [
                    StoreFixtures.note("n"),
                    ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("a")]),
                    ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("b")]),
                    ChangeSet.Insert(
                        entity: "Item", attributes: ["name": .string("i1")],
                        relationships: ["note": .toOne(.inserted(0)), "tags": .toMany([.inserted(2), .inserted(1)])]),
                    ChangeSet.Insert(
                        entity: "Item", attributes: ["name": .string("i2")], relationships: ["note": .toOne(.inserted(0)), "tags": .toMany([.inserted(1)])]),
                ])
            ).insertedIDs
            let (note, tags, items) = (ids[0], [ids[1], ids[2], ids[1]], [ids[4], ids[3]])
            let (read, roundTrips) = try store.read { context in
                func lists(_ objects: [StoredObject]) -> [String] {
                    objects.map { object in
                        "\(object.id): " + object.relationships.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                    }
                }
                var roundTrips = 0
                var read: [String] = []
                if kind == .postgreSQL {
                    let (object, counted) = try context.postgreSQLConnection.countingRoundTrips { try context.fetchObject(entity: "Note", id: note) }
                    (read, roundTrips) = (lists([try #require(object)]), counted)
                } else {
                    read = lists([try #require(try context.fetchObject(entity: "Note", id: note))])
                }
                read += lists(try context.fetchObjects(entity: "Tag", ids: tags)) + lists(try context.fetchObjects(entity: "Item", ids: items))
                return (read, roundTrips)
            }
            #expect(read.count == 6, "\(kind): \(read)")
            if kind == .postgreSQL { #expect(roundTrips == 1, "a note and its lists: \(roundTrips) round trips") }
            answers.append(read)
        }
        #expect(Set(answers.map { $0.joined(separator: "\n") }).count == 1, "\(answers)")
    }

    /// Strings sort by their bytes and NULLs first ascending / last descending, as SQLite sorts;
    /// a cursor position continues after its place, whatever the backend.
    @Test func orderAndCursorsAgreeAcrossBackends() throws {
        try #require(StoreBackendKind.postgreSQL.isAvailable, Comment(rawValue: PostgreSQLTestCluster.skipReason))
        let names: [String?] = ["b", "B", nil, "é", "e\u{301}", "a", nil, "", "Z", "b", "😀", "ab"]
        var answers: [[String]] = []
        for kind in StoreBackendKind.allCases {
            let place = try StorePlace(kind)
            let store = try place.open()
            try store.save(
                ChangeSet(
                    inserts: names.enumerated().map { index, name in
                        var insert = StoreFixtures.note(name ?? "", index: Int64(index % 3))
                        insert.attributes["name"] = name.map(AttributeValue.string) ?? .null
                        insert.attributes["createDate"] = .date(millisecondsSince1970: Int64(index % 4) * 1000)
                        insert.attributes["data"] = index % 2 == 0 ? .binary(Data([UInt8(index)])) : .null
                        insert.attributes["id"] = .uuid(
                            UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", (index * 0x9E37_79B9) & 0xFFFF_FFFF, index))!)
                        return insert
                    }))
            var answer: [String] = []
            for sort in [
                [FetchRequest.Sort("name")], [FetchRequest.Sort("name", ascending: false)],
                [FetchRequest.Sort("index", ascending: false), FetchRequest.Sort("name")],
                [FetchRequest.Sort("createDate"), FetchRequest.Sort("data", ascending: false)],
                [FetchRequest.Sort("id")],
            ] {
                let all = try store.read { try $0.fetchPositions(FetchRequest(entity: "Note", sort: sort)) }
                answer.append("\(sort.map(\.key)): \(all.map(\.id)) \(all.map(\.position))")
                // Page by three through positions, and by `after`.
                var paged: [Int64] = []
                var request = FetchRequest(entity: "Note", sort: sort, limit: 3)
                while true {
                    let page = try store.read { try $0.fetchPositions(request) }
                    paged += page.map(\.id)
                    guard let last = page.last, page.count == 3 else { break }
                    request.position = last.position
                }
                #expect(paged == all.map(\.id), "\(kind) \(sort)")
                var afterPaged: [Int64] = []
                var after = FetchRequest(entity: "Note", sort: sort, limit: 5)
                while true {
                    let page = try store.read { try $0.fetchIDs(after) }
                    afterPaged += page
                    guard let last = page.last, page.count == 5 else { break }
                    after.after = last
                }
                #expect(afterPaged == all.map(\.id), "\(kind) \(sort) by after")
            }
            let filtered = try store.read { try $0.fetchIDs(FetchRequest(entity: "Note", predicates: [.init("name", .string("b"))])) }
            let nulls = try store.read { try $0.fetchIDs(FetchRequest(entity: "Note", predicates: [.init("name", .null)])) }
            answer.append("filter: \(filtered) \(nulls)")
            answers.append(answer)
        }
        #expect(answers[0] == answers[1])
    }

    /// One scenario of every storage shape — nested creates, ordered lists, one-to-one,
    /// many-to-many, inverse-less lists, moves between owners, cascades — run on both backends:
    /// every object (ids, versions, attributes, relationship lists) must read the same after
    /// each step.
    @Test func theSameChangesGiveTheSameObjects() throws {
        try #require(StoreBackendKind.postgreSQL.isAvailable, Comment(rawValue: PostgreSQLTestCluster.skipReason))
        let steps: [ChangeSet] = [
            ChangeSet(
                inserts: [
                    StoreFixtures.note("one"),
                    ChangeSet.Insert(entity: "Item", attributes: ["name": .string("a")]),
                    ChangeSet.Insert(entity: "Item", attributes: ["name": .string("b")]),
                    ChangeSet.Insert(entity: "Item", attributes: ["name": .string("c")]),
                    ChangeSet.Insert(entity: "NoteDescription", attributes: ["text": .string("d")]),
                    StoreFixtures.note("two"),
                ].enumerated().map { index, insert in
                    var insert = insert
                    if index == 0 {
                        insert.relationships = ["items": .toMany([.inserted(1), .inserted(2), .inserted(3)]), "noteDescription": .toOne(.inserted(4))]
                    }
                    return insert
                }),
            ChangeSet(inserts: [
                ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("red")], relationships: ["items": .toMany([.existing(3), .existing(1)])]),
                ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("blue")]),
                ChangeSet.Insert(entity: "Card", attributes: ["title": .string("x")]),
                ChangeSet.Insert(
                    entity: "Card", attributes: ["title": .string("y")], relationships: ["next": .toOne(.inserted(2)), "links": .toMany([.inserted(2)])]),
            ]),
            ChangeSet(updates: [
                ChangeSet.Update(entity: "Note", id: 1, relationships: ["items": .toMany([.existing(3), .existing(1)])]),
                ChangeSet.Update(entity: "Item", id: 2, relationships: ["note": .toOne(.existing(2)), "tags": .toMany([.existing(2), .existing(1)])]),
                ChangeSet.Update(entity: "Card", id: 1, relationships: ["next": .toOne(.existing(2)), "links": .toMany([.existing(2), .existing(1)])]),
                ChangeSet.Update(entity: "NoteDescription", id: 1, relationships: ["note": .toOne(.existing(2))]),
            ]),
            ChangeSet(updates: [
                ChangeSet.Update(entity: "Tag", id: 1, relationships: ["items": .toMany([.existing(2), .existing(3)])]),
                ChangeSet.Update(entity: "Note", id: 2, attributes: ["name": .string("two")], relationships: ["items": .toMany([.existing(2)])]),
                ChangeSet.Update(entity: "Item", id: 1, attributes: ["score": .double(2.5), "extra": .json("[1]")]),
            ]),
            ChangeSet(
                updates: [
                    ChangeSet.Update(entity: "Tag", id: 1, relationships: ["items": .toMany([])]),
                    ChangeSet.Update(entity: "Tag", id: 2, relationships: ["items": .toMany([])]),
                ],
                deletes: [ChangeSet.Delete(entity: "Note", id: 1), ChangeSet.Delete(entity: "Card", id: 2)]),
        ]
        var snapshots: [[String]] = []
        for kind in StoreBackendKind.allCases {
            let place = try StorePlace(kind)
            let store = try place.open()
            var snapshot: [String] = []
            for step in steps {
                let result = try store.save(step)
                snapshot.append("saved \(result.insertedIDs) deleted \(result.deletedCounts.sorted { $0.key < $1.key })")
                try store.read { context in
                    for entity in ["Note", "Item", "Tag", "NoteDescription", "Card"] {
                        let ids = try context.fetchIDs(FetchRequest(entity: entity))
                        for object in try context.fetchObjects(entity: entity, ids: ids) {
                            snapshot.append(
                                "\(entity) \(object.id) v\(object.version) \(object.attributes.filter { $0.key != "createDate" && $0.key != "id" }.sorted { $0.key < $1.key }) \(object.relationships.sorted { $0.key < $1.key })"
                            )
                        }
                    }
                }
            }
            snapshots.append(snapshot)
        }
        #expect(snapshots[0].count == snapshots[1].count)
        for (sqlite, postgreSQL) in zip(snapshots[0], snapshots[1]) where sqlite != postgreSQL {
            Issue.record("SQLite:     \(sqlite)\nPostgreSQL: \(postgreSQL)")
        }
    }

    @Test(arguments: StoreBackendKind.available) func deleteRulesAndUniqueViolationsAnswerInModelTerms(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try place.open()
        let ids = try store.save(
            ChangeSet(inserts: [
                StoreFixtures.note("n"),
                ChangeSet.Insert(entity: "Item", attributes: ["name": .string("a")], relationships: ["note": .toOne(.inserted(0))]),
                ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("red")], relationships: ["items": .toMany([.inserted(1)])]),
            ])
        ).insertedIDs
        #expect { try store.save(ChangeSet(inserts: [ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("red")])])) } throws: { error in
            guard case StoreError.uniqueViolation("Tag", "name") = error else { return false }
            return true
        }
        #expect { try store.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Tag", id: ids[2])])) } throws: { error in
            guard case StoreError.deleteDenied("Tag", ids[2], "items") = error else { return false }
            return true
        }
        #expect { try store.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Note", id: ids[0], expectedVersion: 7)])) } throws: { error in
            guard case StoreError.versionConflict("Note", ids[0], 7, 1) = error else { return false }
            return true
        }
        // The note cascades to its item; the tag (nullify on the item's side) survives, its list
        // shorter. The version and the closure are read together, what the rules decide on in
        // one batch, and the rows deleted in another: on PostgreSQL a fixed number of round
        // trips, whatever the reference columns and join tables the doomed entities have.
        let (result, roundTrips) = try store.write { context in
            let delete = { try context.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Note", id: ids[0], expectedVersion: 1)])) }
            guard kind == .postgreSQL else { return (try delete(), 0) }
            return try context.postgreSQLConnection.countingRoundTrips(delete)
        }
        #expect(result.deletedCounts == ["Note": 1, "Item": 1])
        if kind == .postgreSQL { #expect(roundTrips == 3, "\(roundTrips) round trips before the COMMIT") }
        let tag = try #require(try store.object("Tag", ids[2]))
        #expect(tag.relationships["items"] == .toMany([]))
        #expect(tag.version == 2)
    }
}

extension DataModel {
    /// The same model with one attribute made unique.
    func withUnique(_ entity: String, _ attribute: String) -> DataModel {
        DataModel(
            entities: entities.map { description in
                guard description.name == entity else { return description }
                var attributes = description.attributes
                for index in attributes.indices where attributes[index].name == attribute { attributes[index].isUnique = true }
                return EntityDescription(
                    name: description.name, collection: description.collection, attributes: attributes,
                    relationships: description.relationships, uniqueTogether: description.uniqueTogether)
            })
    }
}
