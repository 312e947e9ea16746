import ClonerClone
import ClonerCloneTestSupport
import ClonerModel
import ClonerStore
import ClonerTestSupport
import ClonerTravel
import Foundation
import Testing

/// `cloner export --all` / `import --all` on real stores: a populated store moved between
/// SQLite and PostgreSQL (both ways) arrives row for row — ids, versions, join order, blobs —
/// with equal counts and checksums; later creates get fresh ids; a non-empty target, a
/// tampered or a cut-short document is refused with nothing written.
@Suite struct StoreMoveTests {
    /// What the populated store holds beyond the rows themselves.
    struct Facts {
        var note: Int64
        var bigBlob: Data
        /// A Tag created and deleted again: its id must never be issued again.
        var deletedTag: Int64
        var itemData: Int64
        /// A note the lineage says was cloned from `note` (docs/architecture.md#lineage).
        var clone: Int64
    }

    /// A decimal with every digit a decimal keeps, which a double would round.
    static let amount = try! ExactDecimal(parsing: "-12345678901234567890.123456789012345678")

    /// Two notes with items (reordered, so join order is not id order), memos tagged
    /// many-to-many, attachments sharing one blob, a 1.5 MiB value spanning two chunks, bumped
    /// versions, and a deleted last row.
    static func populate(_ fixture: CloneFixture) throws -> Facts {
        let tags = try fixture.makeTags(["home", "work", "misc"])
        let first = try fixture.makeSampleNote(items: 5, tags: tags)
        let second = try fixture.makeSampleNote(name: "Trip", items: 3, tags: [tags[1]])
        let big = Data((0..<(3 << 19)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) })
        let image = Data("PNG-bytes".utf8)
        try fixture.store.write { context in
            _ = try context.save(
                ChangeSet(
                    inserts: first.memos.prefix(3).map {
                        ChangeSet.Insert(entity: "Attachment", attributes: ["image": .binary(image)], relationships: ["memo": .toOne(.existing($0))])
                    }
                        + [
                            ChangeSet.Insert(
                                entity: "Attachment", attributes: ["image": .binary(Data([0, 1, 2, 255])), "mimeType": .string("x/y")],
                                relationships: ["memo": .toOne(.existing(second.memos[0]))])
                        ],
                    updates: [
                        ChangeSet.Update(
                            entity: "Note", id: first.note, attributes: ["data": .binary(big), "name": .string("Groceries \u{1F34E}")],
                            relationships: ["items": .toMany(first.items.reversed().map { .existing($0) })]),
                        ChangeSet.Update(entity: "Note", id: second.note, relationships: ["template": .toOne(.existing(first.note))]),
                        ChangeSet.Update(entity: "ItemData", id: first.itemDatas[0], attributes: ["amount": .decimal(amount)]),
                    ]))
        }
        try fixture.store.write { context in
            _ = try context.save(ChangeSet(updates: [ChangeSet.Update(entity: "Note", id: first.note, attributes: ["index": .integer(-7)])]))
        }
        let gone = try fixture.makeTags(["gone"])[0]
        try fixture.store.write { context in _ = try context.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Tag", id: gone)])) }
        // Lineage of two entities, so its rows are ordered by entity name, then clone `_id`.
        try fixture.store.write { context in
            try context.recordClones(entity: "Tag", sourceID: tags[0], cloneIDs: [tags[2], tags[1]], at: Date(timeIntervalSince1970: 1_700_000_000.123))
            try context.recordClones(entity: "Note", sourceID: first.note, cloneIDs: [second.note], at: Date())
        }
        return Facts(note: first.note, bigBlob: big, deletedTag: gone, itemData: first.itemDatas[0], clone: second.note)
    }

    /// Every row of every table and every blob with a digest of its bytes, as text.
    static func contents(_ store: IncrementalStore) throws -> [String] {
        try store.read { context in
            let reader = StoreTransferReader(context: context)
            var lines: [String] = []
            var digest: BlobDigest?
            var current = ""
            try reader.forEachBlob { blob in
                if let digest { lines.append(current + " " + digest.finish().lowercaseHex) }
                digest = BlobDigest()
                current = "blob \(blob.hash.lowercaseHex) \(blob.size)"
            } chunk: { chunk in
                digest?.update(chunk.bytes)
            }
            if let digest { lines.append(current + " " + digest.finish().lowercaseHex) }
            for table in reader.tables {
                try reader.forEachRow(of: table) { lines.append("\(table.name) \($0)") }
            }
            return lines
        }
    }

    static func export(_ store: IncrementalStore) throws -> (document: [UInt8], summaries: [StoreDocumentSummary]) {
        var document: [UInt8] = []
        let summaries = try store.read { context in
            try StoreDocumentExporter().run(in: context) { document += $0 }
        }
        return (document, summaries)
    }

    /// Feeds the document in small pieces, so lines cross the pieces' edges.
    @discardableResult
    static func `import`(_ document: [UInt8], into store: IncrementalStore) throws -> [StoreDocumentSummary] {
        try store.write { context in
            var importer = try StoreDocumentImporter(context: context)
            var start = 0
            while start < document.count {
                let end = min(start + 65_537, document.count)
                try importer.feed(Array(document[start..<end]))
                start = end
            }
            return try importer.finish()
        }
    }

    func roundTrip(from source: StoreBackendKind, to target: StoreBackendKind) throws {
        let from = try CloneFixture(source)
        let facts = try Self.populate(from)
        let (document, exported) = try Self.export(from.store)
        let into = try CloneFixture(target)
        let imported = try Self.import(document, into: into.store)

        #expect(imported == exported, "the import prints the export's counts and checksums")
        #expect(imported.map(\.description) == exported.map(\.description))
        #expect(exported.first { $0.table == "Note" }?.rows == 2)
        #expect(exported.first { $0.table == "Tag" }?.highestID == facts.deletedTag)
        #expect(exported.first { $0.table == "_cloner_lineage" }?.rows == 3)
        let before = try Self.contents(from.store)
        let after = try Self.contents(into.store)
        #expect(before.count > 40)
        #expect(after == before, "every row, id, version, join order and blob")

        let note = try into.object("Note", facts.note)
        #expect(note.attributes["data"] == .binary(facts.bigBlob))
        #expect(note.attributes["name"] == .string("Groceries \u{1F34E}"))
        #expect(try into.object("ItemData", facts.itemData).attributes["amount"] == .decimal(Self.amount))
        #expect(note.version == (try from.object("Note", facts.note)).version)
        #expect(try into.toMany("Note", facts.note, "items") == (try from.toMany("Note", facts.note, "items")))
        let streamed = try into.store.read { context -> Data in
            var bytes = Data()
            let reference = try #require(try context.blobReference(entity: "Note", id: facts.note, attribute: "data"))
            _ = try context.readBlob(hash: reference.hash, range: 0..<reference.size) { bytes.append($0) }
            return bytes
        }
        #expect(streamed == facts.bigBlob)
        #expect(try into.store.read { try $0.checkBlobs(limit: 10) }.isEmpty)
        let clone = try into.store.read { try $0.fetchRecords(entity: "Note", ids: [facts.clone]) }
        #expect(clone.clonedFrom(record: 0) == facts.note)
        #expect(try into.store.read { try $0.clones(entity: "Note", sourceID: facts.note, after: nil, limit: 5) }.map(\.cloneID) == [facts.clone])

        let fresh = try into.makeTags(["after the move"])[0]
        #expect(fresh > facts.deletedTag, "a create after the move gets an id the source never issued")
        let item = try into.insert([ChangeSet.Insert(entity: "Item", attributes: ["name": .string("new")])])[0]
        #expect(!(try from.ids("Item")).contains(item))
    }

    @Test func sqliteToSQLite() throws {
        try roundTrip(from: .sqlite, to: .sqlite)
    }

    @Test(.enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
    func sqliteToPostgreSQL() throws {
        try roundTrip(from: .sqlite, to: .postgreSQL)
    }

    @Test(.enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
    func postgreSQLToSQLite() throws {
        try roundTrip(from: .postgreSQL, to: .sqlite)
    }

    /// Both sides of a many-to-many ordered (`src_pos` and `dst_pos` in one join table) and an
    /// ordered to-many without inverse keep their order, which is not the order of the ids.
    static let orderedModel = """
        { "entities": [
          { "name": "Playlist", "attributes": [ { "name": "title", "type": "string", "optional": true } ],
            "relationships": [
              { "name": "songs", "destination": "Song", "toMany": true, "ordered": true, "inverse": "playlists" },
              { "name": "favourites", "destination": "Song", "toMany": true, "ordered": true } ] },
          { "name": "Song", "attributes": [ { "name": "title", "type": "string", "optional": true } ],
            "relationships": [ { "name": "playlists", "destination": "Playlist", "toMany": true, "ordered": true, "inverse": "songs" } ] }
        ] }
        """

    @Test(arguments: [StoreBackendKind.sqlite] + (PostgreSQLTestCluster.isEnabled ? [StoreBackendKind.postgreSQL] : []))
    func orderedJoinTablesKeepTheirOrder(_ target: StoreBackendKind) throws {
        let from = try CloneFixture(modelJSON: Self.orderedModel, .sqlite)
        let songs = try from.insert((0..<5).map { ChangeSet.Insert(entity: "Song", attributes: ["title": .string("song \($0)")]) })
        let playlists = try from.insert([
            ChangeSet.Insert(
                entity: "Playlist", attributes: ["title": .string("a")],
                relationships: ["songs": .toMany([4, 1, 3].map { .existing(songs[$0]) }), "favourites": .toMany([2, 0].map { .existing(songs[$0]) })]),
            ChangeSet.Insert(entity: "Playlist", attributes: ["title": .string("b")], relationships: ["songs": .toMany([3, 4].map { .existing(songs[$0]) })]),
        ])
        // Song 3's playlists in the order b, a: the other side's own order.
        try from.store.write { context in
            _ = try context.save(
                ChangeSet(updates: [
                    ChangeSet.Update(entity: "Song", id: songs[3], relationships: ["playlists": .toMany([playlists[1], playlists[0]].map { .existing($0) })])
                ]))
        }
        let into = try CloneFixture(modelJSON: Self.orderedModel, target)
        let (document, exported) = try Self.export(from.store)
        #expect(try Self.import(document, into: into.store) == exported)
        for playlist in playlists {
            #expect(try into.toMany("Playlist", playlist, "songs") == (try from.toMany("Playlist", playlist, "songs")))
            #expect(try into.toMany("Playlist", playlist, "favourites") == (try from.toMany("Playlist", playlist, "favourites")))
        }
        for song in songs {
            #expect(try into.toMany("Song", song, "playlists") == (try from.toMany("Song", song, "playlists")))
        }
        #expect(try into.toMany("Song", songs[3], "playlists") == [playlists[1], playlists[0]])
        #expect(try into.toMany("Playlist", playlists[0], "favourites") == [songs[2], songs[0]])
    }

    @Test func anEmptyStoreMovesToo() throws {
        let from = try CloneFixture()
        let (document, exported) = try Self.export(from.store)
        let into = try CloneFixture()
        #expect(try Self.import(document, into: into.store) == exported)
        #expect(exported.allSatisfy { $0.rows == 0 || $0.table == StoreDocument.blobSection })
    }

    // MARK: - refusals

    /// Row counts of every table and the blob keys: what "nothing written" is checked against.
    static func footprint(_ fixture: CloneFixture) throws -> String {
        "\(try fixture.rowCounts().sorted { $0.key < $1.key }) \(try contents(fixture.store).filter { $0.hasPrefix("blob") })"
    }

    func refused(_ document: [UInt8], _ backend: StoreBackendKind = .sqlite) throws -> (any Error, CloneFixture) {
        let into = try CloneFixture(backend)
        let empty = try Self.footprint(into)
        let error = try #require(throws: (any Error).self) { try Self.import(document, into: into.store) }
        #expect(try Self.footprint(into) == empty, "nothing written")
        return (error, into)
    }

    static func lines(_ document: [UInt8]) -> [String] {
        String(decoding: document, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    static func document(_ lines: [String]) -> [UInt8] { Array((lines.joined(separator: "\n") + "\n").utf8) }

    /// A document written before the lineage was carried (its tables end before `_cloner_lineage`)
    /// still moves, its clones without a recorded source.
    @Test func aDocumentWithoutTheLineageMoves() throws {
        let from = try CloneFixture()
        _ = try Self.populate(from)
        var lines = Self.lines(try Self.export(from.store).document).filter { !$0.contains("\"table\":\"_cloner_lineage\"") }
        var header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        var tables = try #require(header["tables"] as? [[String: Any]])
        #expect(tables.removeLast()["name"] as? String == "_cloner_lineage")
        header["tables"] = tables
        lines[0] = String(decoding: try JSONSerialization.data(withJSONObject: header), as: UTF8.self)
        let end = try #require(lines.indices.last)
        let sections = try #require(lines[end].wholeMatch(of: /\{"kind":"end","sections":(\d+)\}/).flatMap { Int($0.1) })
        lines[end] = "{\"kind\":\"end\",\"sections\":\(sections - 1)}"

        let into = try CloneFixture()
        let imported = try Self.import(Self.document(lines), into: into.store)
        #expect(!imported.contains { $0.table == "_cloner_lineage" })
        #expect(try Self.contents(into.store) == (try Self.contents(from.store)).filter { !$0.hasPrefix("_cloner_lineage ") })
        #expect(try Self.contents(into.store).count > 40)
    }

    @Test func aLineageRowOfNoEntityOrOutOfOrderIsRefused() throws {
        let from = try CloneFixture()
        _ = try Self.populate(from)
        let lines = Self.lines(try Self.export(from.store).document)
        let rows = lines.indices.filter { lines[$0].contains("\"kind\":\"row\"") && lines[$0].contains("\"table\":\"_cloner_lineage\"") }
        #expect(rows.count == 3)
        var unknown = lines
        unknown[rows[0]] = unknown[rows[0]].replacingOccurrences(of: "[\"Note\",", with: "[\"Nope\",")
        let (error, _) = try refused(Self.document(unknown))
        #expect(
            error as? StoreDocumentError == .badLine(line: rows[0] + 1, field: "values[0] (entity)", message: "expected the name of an entity of the model"))
        var swapped = lines
        swapped.swapAt(rows[1], rows[2])
        let (outOfOrder, _) = try refused(Self.document(swapped))
        guard case .badLine(let line, let field, _)? = outOfOrder as? StoreDocumentError else { Issue.record("\(outOfOrder)"); return }
        #expect(line == rows[2] + 1 && field == "values[0]")
    }

    @Test func anImportIntoAStoreWithRecordsIsRefusedNamingTheTable() throws {
        let from = try CloneFixture()
        _ = try Self.populate(from)
        let (document, _) = try Self.export(from.store)
        let into = try CloneFixture()
        _ = try into.makeTags(["already here"])
        let before = try Self.footprint(into)
        #expect(throws: StoreTransferError.notEmpty(table: "Tag")) { try Self.import(document, into: into.store) }
        #expect(try Self.footprint(into) == before)
    }

    @Test func aChangedChecksumIsRefusedWithNothingWritten() throws {
        let from = try CloneFixture()
        _ = try Self.populate(from)
        var lines = Self.lines(try Self.export(from.store).document)
        let index = try #require(lines.firstIndex { $0.contains("\"kind\":\"summary\"") && $0.contains("\"table\":\"Memo\"") })
        lines[index] = lines[index].replacingOccurrences(of: "\"checksum\":\"", with: "\"checksum\":\"0")
        let (error, _) = try refused(Self.document(lines))
        let mismatch = try #require(error as? StoreDocumentError)
        guard case .mismatch(let table, let message) = mismatch else { Issue.record("\(mismatch)"); return }
        #expect(table == "Memo")
        #expect(message.contains("line \(index + 1)"), "\(message)")
    }

    @Test func aChangedValueIsRefusedByTheChecksum() throws {
        let from = try CloneFixture()
        _ = try Self.populate(from)
        var lines = Self.lines(try Self.export(from.store).document)
        let index = try #require(lines.firstIndex { $0.contains("\"memo 2\"") })
        lines[index] = lines[index].replacingOccurrences(of: "\"memo 2\"", with: "\"memo two\"")
        let (error, _) = try refused(Self.document(lines))
        #expect((error as? StoreDocumentError).map { if case .mismatch(table: "Memo", _) = $0 { true } else { false } } == true, "\(error)")
    }

    @Test func aBadLineIsRefusedNamingLineAndField() throws {
        let from = try CloneFixture()
        _ = try Self.populate(from)
        var lines = Self.lines(try Self.export(from.store).document)
        let index = try #require(lines.firstIndex { $0.hasPrefix("{\"kind\":\"row\",\"table\":\"Item\"") })
        // The row's `_version` (values[1]) as a string.
        var row = try JSONValue(parsing: lines[index])
        guard case .object(var members) = row, case .array(var values)? = members["values"] else { Issue.record("\(row)"); return }
        values[1] = .string("one")
        members["values"] = .array(values)
        row = .object(members)
        lines[index] = row.canonicalText
        let (error, _) = try refused(Self.document(lines))
        #expect(error as? StoreDocumentError == .badLine(line: index + 1, field: "values[1] (_version)", message: "expected an integer, found \"one\""))

        lines[index] = "{\"kind\":\"row\",\"table\":\"Item\",\"values\":[1,"
        let (syntax, _) = try refused(Self.document(lines))
        guard case .badLine(let line, _, let message)? = syntax as? StoreDocumentError else { Issue.record("\(syntax)"); return }
        #expect(line == index + 1)
        #expect(message.hasPrefix("not JSON"))
    }

    /// A crafted document may name ids and dates no route could make: an id sequence moved near
    /// Int64.max would leave every later create and clone failing, and a date past year 9999 has
    /// no text form. Each is refused at its line, naming the field, with nothing written.
    @Test(arguments: StoreBackendKind.available) func idsAndDatesTheStoreCannotKeepAreRefused(_ backend: StoreBackendKind) throws {
        let from = try CloneFixture()
        _ = try Self.populate(from)
        let lines = Self.lines(try Self.export(from.store).document)
        func edited(_ index: Int, _ edit: (inout [String: JSONValue]) -> Void) throws -> [UInt8] {
            guard case .object(var members) = try JSONValue(parsing: lines[index]) else { throw ClientError("line \(index + 1)") }
            edit(&members)
            var changed = lines
            changed[index] = JSONValue.object(members).canonicalText
            return Self.document(changed)
        }
        let summary = try #require(lines.firstIndex { $0.contains("\"kind\":\"summary\"") && $0.contains("\"table\":\"Memo\"") })
        let memoRows = lines.indices.filter { lines[$0].hasPrefix("{\"kind\":\"row\",\"table\":\"Memo\"") }
        let lastMemo = try #require(memoRows.last)
        let memo = try #require(from.store.schema.transferTables.first { $0.name == "Memo" })
        let createDate = try #require(memo.columns.firstIndex { $0.name == "createDate" })
        let cases: [(document: [UInt8], line: Int, field: String)] = [
            (try edited(summary) { $0["highestID"] = .integer(.max) }, summary + 1, "highestID"),
            (try edited(summary) { $0["highestID"] = .integer(StoreSchema.largestID + 1) }, summary + 1, "highestID"),
            (
                try edited(lastMemo) {
                    guard case .array(var values)? = $0["values"] else { return }
                    values[0] = .integer(StoreSchema.largestID + 1)
                    $0["values"] = .array(values)
                }, lastMemo + 1, "values[0] (_id)"
            ),
            (
                try edited(lastMemo) {
                    guard case .array(var values)? = $0["values"] else { return }
                    values[createDate] = .integer(.max)
                    $0["values"] = .array(values)
                }, lastMemo + 1, "values[\(createDate)] (createDate)"
            ),
        ]
        for refusal in cases {
            let (error, _) = try refused(refusal.document, backend)
            guard case .badLine(let line, let field, let message)? = error as? StoreDocumentError else {
                Issue.record("\(backend): \(error)")
                continue
            }
            #expect(line == refusal.line && field == refusal.field, "\(backend): line \(line) \(field): \(message)")
        }
    }

    @Test func aChangedBlobByteIsRefusedNamingTheBlob() throws {
        let from = try CloneFixture()
        _ = try Self.populate(from)
        var lines = Self.lines(try Self.export(from.store).document)
        let chunk = try #require(lines.firstIndex { $0.hasPrefix("{\"kind\":\"chunk\"") && $0.contains("\"n\":1") })
        lines[chunk] = lines[chunk].replacingOccurrences(of: "\"bytes\":\"A", with: "\"bytes\":\"B")
        let blob = try #require(lines[..<chunk].lastIndex { $0.hasPrefix("{\"kind\":\"blob\"") })
        let (error, _) = try refused(Self.document(lines))
        guard case .badLine(let line, let field, let message)? = error as? StoreDocumentError else { Issue.record("\(error)"); return }
        #expect(line == blob + 1)
        #expect(field == "hash")
        #expect(message.contains("hash to"))
    }

    @Test func aDocumentCutShortIsRefused() throws {
        let from = try CloneFixture()
        _ = try Self.populate(from)
        let lines = Self.lines(try Self.export(from.store).document)
        let (error, _) = try refused(Self.document(Array(lines.dropLast())))
        guard case .incomplete? = error as? StoreDocumentError else { Issue.record("\(error)"); return }
        let (midway, _) = try refused(Self.document(Array(lines.prefix(lines.count / 2))))
        guard case .incomplete? = midway as? StoreDocumentError else { Issue.record("\(midway)"); return }
    }

    @Test(.enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
    func aTamperedDocumentLeavesPostgreSQLEmpty() throws {
        let from = try CloneFixture()
        _ = try Self.populate(from)
        var lines = Self.lines(try Self.export(from.store).document)
        let index = try #require(lines.lastIndex { $0.contains("\"kind\":\"summary\"") })
        lines[index] = lines[index].replacingOccurrences(of: "\"rows\":", with: "\"rows\":1")
        let (error, into) = try refused(Self.document(lines), .postgreSQL)
        #expect(error is StoreDocumentError, "\(error)")
        #expect(try into.postgreSQLCount("Note") == 0)
    }

    /// An empty value uploaded as an empty body has no chunk row (one saved with its record has
    /// one empty chunk): both move.
    @Test func anEmptyValueWithoutChunksMoves() throws {
        let from = try CloneFixture()
        let notes = try from.insert([
            ChangeSet.Insert(entity: "Note", attributes: ["id": .uuid(UUID()), "createDate": .date(millisecondsSince1970: 0), "data": .binary(Data())])
        ])
        try from.sql("DELETE FROM _cloner_blob_chunks WHERE hash = X'\(BlobDigest.sha256(Data()).lowercaseHex)'")
        let (document, exported) = try Self.export(from.store)
        let into = try CloneFixture()
        #expect(try Self.import(document, into: into.store) == exported)
        #expect(try into.object("Note", notes[0]).attributes["data"] == (try from.object("Note", notes[0])).attributes["data"])
        let reference = try into.store.read { try $0.blobReference(entity: "Note", id: notes[0], attribute: "data") }
        #expect(reference == BlobReference(hash: BlobDigest.sha256(Data()), size: 0))
        #expect(try Self.contents(into.store) == (try Self.contents(from.store)))
    }

    /// PostgreSQL text cannot hold U+0000, which SQLite can: the import names the row and
    /// attribute, and writes nothing.
    @Test(.enabled(if: PostgreSQLTestCluster.isEnabled, Comment(rawValue: PostgreSQLTestCluster.skipReason)))
    func aValuePostgreSQLCannotHoldIsRefusedNamingTheRow() throws {
        let from = try CloneFixture()
        let note = try from.insert([
            ChangeSet.Insert(entity: "Note", attributes: ["id": .uuid(UUID()), "createDate": .date(millisecondsSince1970: 0), "name": .string("a\u{0}b")])
        ])[0]
        let (error, into) = try refused(try Self.export(from.store).document, .postgreSQL)
        guard case .invalidValue(let entity, let property, _)? = error as? StoreError else { Issue.record("\(error)"); return }
        #expect(entity == "Note \(note)")
        #expect(property == "name")
        #expect(try into.postgreSQLCount("Note") == 0)
    }

    /// A store of another model has other tables: the header's fingerprint is refused before a
    /// row is read.
    @Test func aDocumentOfAnotherModelIsRefused() throws {
        let from = try CloneFixture()
        _ = try Self.populate(from)
        let (document, _) = try Self.export(from.store)
        let into = try CloneFixture(modelJSON: #"{"entities": [{"name": "Note", "attributes": [{"name": "name", "type": "string", "optional": true}]}]}"#)
        let error = try #require(throws: StoreDocumentError.self) { try Self.import(document, into: into.store) }
        guard case .badLine(line: 1, field: "fingerprint", _) = error else { Issue.record("\(error)"); return }
        #expect(try into.ids("Note").isEmpty)
    }

    @Test func aGraphDocumentIsNotAWholeStoreDocument() throws {
        let header = #"{"kind":"header","format":"cloner-graph","version":1}"#
        let (error, _) = try refused(Array((header + "\n").utf8))
        #expect(error as? StoreDocumentError == .badLine(line: 1, field: "format", message: "expected \"cloner-store\" (a whole-store document)"))
    }
}
