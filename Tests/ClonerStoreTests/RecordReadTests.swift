import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// The read routes' positional reads (`fetchRecords`, `fetchRecordPage`) give the same records,
/// order, pages and cursors as the by-name reads they replace, on every backend.
@Suite struct RecordReadTests {
    /// Notes with every attribute type and ordered items, items with tags (many-to-many), a
    /// description (one-to-one): every way a relationship is stored.
    private func fill(_ store: IncrementalStore) throws -> (notes: [Int64], items: [Int64]) {
        var inserts: [ChangeSet.Insert] = []
        for index in 0..<7 {
            inserts.append(
                ChangeSet.Insert(
                    entity: "Note",
                    attributes: [
                        "id": .uuid(UUID()), "name": index == 3 ? .null : .string("note \(index % 3) \u{e9}\"\\"),
                        "createDate": .date(millisecondsSince1970: 1_700_000_000_000 + Int64(index % 4) * 1_001),
                        "index": .integer(Int64(index % 2)), "data": index % 2 == 0 ? .binary(Data([0, 1, 2, UInt8(index)])) : .null,
                    ]))
        }
        inserts.append(ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("red")]))
        inserts.append(ChangeSet.Insert(entity: "Tag", attributes: ["name": .string("blue")]))
        for index in 0..<23 {
            inserts.append(
                ChangeSet.Insert(
                    entity: "Item",
                    attributes: [
                        "name": .string("item \(index)"), "score": index % 5 == 0 ? .null : .double(Double(index) / 4),
                        "done": .boolean(index % 2 == 0), "extra": index % 3 == 0 ? .json(#"{"a":[1,2.5]}"#) : .null,
                    ],
                    relationships: [
                        "note": index % 6 == 5 ? .toOne(nil) : .toOne(.inserted(index % 3)),
                        "tags": .toMany(index % 4 == 0 ? [.inserted(8), .inserted(7)] : index % 4 == 1 ? [.inserted(7)] : []),
                    ]))
        }
        inserts.append(ChangeSet.Insert(entity: "NoteDescription", attributes: ["text": .string("about 0")], relationships: ["note": .toOne(.inserted(0))]))
        let ids = try store.write { try $0.save(ChangeSet(inserts: inserts)) }.insertedIDs
        return (Array(ids[0..<7]), Array(ids[9..<32]))
    }

    private func objects(_ records: StoredRecords) -> [StoredObject] {
        (0..<records.count).map { records.object(at: $0) }
    }

    @Test(arguments: StoreBackendKind.available) func recordsMatchObjects(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let (notes, items) = try fill(store)
        for entity in ["Note", "Item", "Tag", "NoteDescription"] {
            let all = try store.read { try $0.fetchIDs(FetchRequest(entity: entity)) }
            #expect(!all.isEmpty)
            let lists: [[Int64]] = [all, all.reversed(), [all[all.count / 2]], [999_999], [], [all[0], 999_999, all[0], all.last!]]
            for ids in lists {
                let (records, expected) = try store.read { context in
                    (try context.fetchRecords(entity: entity, ids: ids), try context.fetchObjects(entity: entity, ids: ids))
                }
                #expect(objects(records) == expected, "\(kind) \(entity) \(ids)")
            }
        }
        // The one-record read the `GET /{collection}/{id}` route makes, with its lists.
        let note = try store.read { try $0.fetchRecords(entity: "Note", ids: [notes[0]]) }
        #expect(note.count == 1)
        let expectedItems = try store.read { try $0.fetchIDs(FetchRequest(entity: "Item", predicates: [.init("note", .integer(notes[0]))])) }
        #expect(note.object(at: 0).relationships["items"] == .toMany(expectedItems))
        #expect(note.object(at: 0).relationships["noteDescription"] != .toOne(nil))
        #expect(items.count == 23)
    }

    @Test(arguments: StoreBackendKind.available) func pagesMatchPositionsThenObjects(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let (notes, _) = try fill(store)
        let shapes: [(entity: String, predicates: [FetchRequest.Equality], sort: [FetchRequest.Sort])] = [
            ("Item", [], []),
            ("Item", [.init("note", .integer(notes[1]))], []),
            ("Item", [.init("note", .null)], []),
            ("Item", [], [FetchRequest.Sort("score", ascending: false)]),
            ("Item", [.init("done", .boolean(true))], [FetchRequest.Sort("extra"), FetchRequest.Sort("name", ascending: false)]),
            ("Note", [], [FetchRequest.Sort("name"), FetchRequest.Sort("createDate", ascending: false)]),
            ("Note", [.init("index", .integer(1))], [FetchRequest.Sort("data")]),
        ]
        for shape in shapes {
            for pageSize in [1, 2, 5, 50] {
                let request = FetchRequest(entity: shape.entity, predicates: shape.predicates, sort: shape.sort)
                let everything = try store.read { try $0.fetchPositions(request) }
                var seen: [Int64] = []
                var next = request
                var pages = 0
                while true {
                    let page = try store.read { try $0.fetchRecordPage(next, pageSize: pageSize) }
                    // What the route did before: positions of one row more than a page, then objects.
                    var asked = next
                    asked.limit = pageSize + 1
                    let rows = try store.read { try $0.fetchPositions(asked) }
                    let expected = try store.read { try $0.fetchObjects(entity: shape.entity, ids: rows.prefix(pageSize).map(\.id)) }
                    #expect(objects(page.records) == expected, "\(kind) \(shape) page \(pages) of \(pageSize)")
                    #expect(page.hasMore == (rows.count > pageSize))
                    seen += page.records.ids
                    pages += 1
                    guard page.hasMore else {
                        #expect(page.lastPosition == nil)
                        break
                    }
                    #expect(page.lastPosition == rows[pageSize - 1].position)
                    guard let position = page.lastPosition else { break }
                    next.position = position
                    if pages > 30 { break }
                }
                #expect(seen == everything.map(\.id), "\(kind) \(shape) by \(pageSize)")
            }
        }
        // `after` under another order names a record that must exist, as with fetchPositions.
        var gone = FetchRequest(entity: "Item", sort: [FetchRequest.Sort("name")])
        gone.after = 999_999
        #expect { try store.read { try $0.fetchRecordPage(gone, pageSize: 5) } } throws: { error in
            guard case StoreError.notFound("Item", 999_999) = error else { return false }
            return true
        }
    }

    /// A page costs the same few statements whatever its size: BEGIN, the page, one per
    /// relationship stored elsewhere (Item.tags), COMMIT.
    @Test func sqlitePageStatementsDoNotGrowWithThePage() throws {
        let place = try StorePlace(.sqlite)
        let store = try StoreFixtures.openStore(place)
        _ = try fill(store)
        for pageSize in [1, 5, 50] {
            let counted = try store.read { context in
                try context.sqliteConnection.countingStatements { try context.fetchRecordPage(FetchRequest(entity: "Item"), pageSize: pageSize) }
            }
            #expect(counted.statements == 2, "page of \(pageSize): \(counted.statements) statements")
            #expect(counted.result.records.count == min(pageSize, 23))
        }
        let note = try store.read { context in
            try context.sqliteConnection.countingStatements { try context.fetchRecords(entity: "Note", ids: [1]) }
        }
        // The row, then one per relationship of Note stored on another table.
        let elsewhere = try store.read { context in
            context.model.entity(named: "Note")!.relationships.filter {
                if case .foreignKeyOnSource = context.schema.storage(of: $0) { return false }
                return true
            }.count
        }
        #expect(elsewhere >= 1)
        // A small binary value (`data`, 4 bytes) is read with the row: no statement more.
        let binary = try #require(note.result.entity.attributes.firstIndex { $0.type == .binary })
        #expect(note.result.value(record: 0, attribute: binary) == .binary(Data([0, 1, 2, 0])))
        #expect(note.statements == 1 + elsewhere)
        // Past the budget it is left in the store, with its size, and no more is read.
        let stored = try store.read { context in
            try context.sqliteConnection.countingStatements { try context.fetchRecords(entity: "Note", ids: [1], inlineBinaryBytes: 0) }
        }
        #expect(stored.statements == 1 + elsewhere)
        #expect(stored.result.value(record: 0, attribute: binary) == .null)
        #expect(stored.result.storedBinary(record: 0, attribute: binary) == 4)
        // A value larger than the row reads costs one statement, and only when it is carried.
        let large = Data((0..<(SQLRecordColumns.rowBinaryBytes + 1)).map { UInt8(truncatingIfNeeded: $0) })
        _ = try store.write { try $0.save(ChangeSet(updates: [.init(entity: "Note", id: 1, attributes: ["data": .binary(large)])])) }
        for (budget, statements, value) in [(Int.max, 2 + elsewhere, AttributeValue.binary(large)), (large.count - 1, 1 + elsewhere, .null)] {
            let read = try store.read { context in
                try context.sqliteConnection.countingStatements { try context.fetchRecords(entity: "Note", ids: [1], inlineBinaryBytes: budget) }
            }
            #expect(read.statements == statements, "budget \(budget)")
            #expect(read.result.value(record: 0, attribute: binary) == value, "budget \(budget)")
        }
    }

    /// Twelve notes whose names are 10,000 bytes: a page of at most 35,000 text bytes holds three,
    /// and `next` goes on from the fourth; a budget below one record gives one record a page. In
    /// either order every note comes once, and no page passes the budget but a page of one.
    @Test(arguments: StoreBackendKind.available) func aPageEndsBeforeTheRecordThatPassesItsTextBudget(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let inserts = (0..<12).map { index in
            ChangeSet.Insert(
                entity: "Note",
                attributes: [
                    "id": .uuid(UUID()), "name": .string(String(format: "%02d", index) + String(repeating: "é", count: 4999)),
                    "createDate": .date(millisecondsSince1970: 0),
                ])
        }
        let ids = try store.write { try $0.save(ChangeSet(inserts: inserts)) }.insertedIDs
        let sizes = try store.read { try $0.textBytes(entity: "Note", ids: ids + [999_999]) }
        #expect(sizes.dropLast().allSatisfy { $0 >= 10_000 && $0 < 10_100 }, "\(sizes)")
        #expect(sizes.last == 0)
        for (sort, expected) in [([FetchRequest.Sort](), ids), ([FetchRequest.Sort("name", ascending: false)], ids.reversed())] {
            for (budget, perPage) in [(35_000, 3), (100, 1), (Int.max, 12)] {
                var next = FetchRequest(entity: "Note", sort: sort)
                var seen: [Int64] = []
                var pages = 0
                while true {
                    let page = try store.read { try $0.fetchRecordPage(next, pageSize: 50, inlineBinaryBytes: .max, textBytes: budget) }
                    let pageIDs = page.records.ids
                    let text = try store.read { try $0.textBytes(entity: "Note", ids: pageIDs) }.reduce(0, +)
                    #expect(pageIDs.count == min(perPage, expected.count - seen.count), "\(kind) budget \(budget) page \(pages): \(pageIDs.count)")
                    #expect(pageIDs.count == 1 || text <= budget, "\(kind) budget \(budget) page \(pages) holds \(text) bytes")
                    seen += pageIDs
                    pages += 1
                    guard page.hasMore, let position = page.lastPosition else { break }
                    next.position = position
                    try #require(pages <= 12, "\(kind) budget \(budget): the pages never end")
                }
                #expect(seen == Array(expected), "\(kind) budget \(budget) sort \(sort)")
            }
        }
    }
}
