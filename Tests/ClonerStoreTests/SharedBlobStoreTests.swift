import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

/// Binary values stored once per content (docs/architecture.md#shared-blobs), at the store: the
/// save path, the sweep, the foreign keys, `checkBlobs` and the migration of a store written in
/// the layout before blobs.
@Suite struct SharedBlobStoreTests {
    static func noteWith(_ name: String, data: Data?) -> ChangeSet.Insert {
        var insert = StoreFixtures.note(name)
        insert.attributes["data"] = data.map(AttributeValue.binary) ?? .null
        return insert
    }

    /// (The store must outlive its place's folder: keep the `StorePlace` in a local.)
    static func blobCount(_ store: IncrementalStore) throws -> Int {
        try store.read { Int(try $0.rawTexts("SELECT CAST(count(*) AS TEXT) FROM \"_cloner_blobs\"").first??.description ?? "") ?? -1 }
    }

    @Test(arguments: StoreBackendKind.available) func equalValuesShareOneBlobAndReadBackWhole(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        // Three chunks and a bit, so the read path concatenates chunks in order.
        let big = Data((0..<(3 * StoreSchema.blobChunkSize + 17)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 12) })
        let ids = try store.save(
            ChangeSet(inserts: [
                Self.noteWith("a", data: big), Self.noteWith("b", data: big), Self.noteWith("c", data: Data()), Self.noteWith("d", data: nil),
            ])
        ).insertedIDs
        #expect(try Self.blobCount(store) == 2, "one blob per content: the big value and the empty one")
        #expect(try store.object("Note", ids[0])?.attributes["data"] == .binary(big))
        #expect(try store.object("Note", ids[1])?.attributes["data"] == .binary(big))
        #expect(try store.object("Note", ids[2])?.attributes["data"] == .binary(Data()))
        #expect(try store.object("Note", ids[3])?.attributes["data"] == .null)
        let chunks = try store.read { try $0.rawTexts("SELECT CAST(count(*) AS TEXT) FROM \"_cloner_blob_chunks\"") }
        #expect(chunks == ["5"], "four chunks of the big value, one (empty) of the empty one")
        // A filter compares the value, not its storage.
        let found = try store.read { try $0.fetchIDs(FetchRequest(entity: "Note", predicates: [.init("data", .binary(big))])) }
        #expect(found == [ids[0], ids[1]])
        #expect(try store.read { try $0.checkBlobs(limit: 10) }.isEmpty)
    }

    @Test(arguments: StoreBackendKind.available) func updatesAndDeletesTakeTheLastReferencesBlobWithThem(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let one = Data("one".utf8), two = Data("two".utf8)
        let ids = try store.save(ChangeSet(inserts: [Self.noteWith("a", data: one), Self.noteWith("b", data: one)])).insertedIDs
        #expect(try Self.blobCount(store) == 1)

        try store.save(ChangeSet(updates: [ChangeSet.Update(entity: "Note", id: ids[0], attributes: ["data": .binary(two)])]))
        #expect(try Self.blobCount(store) == 2, "b still refers to `one`")
        try store.save(ChangeSet(updates: [ChangeSet.Update(entity: "Note", id: ids[1], attributes: ["data": .null])]))
        #expect(try Self.blobCount(store) == 1, "nulling the last reference took `one` with it")
        #expect(try store.object("Note", ids[0])?.attributes["data"] == .binary(two))

        try store.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Note", id: ids[0])]))
        #expect(try Self.blobCount(store) == 0, "deleting the last reference took `two` with it")
        #expect(try store.read { try $0.rawTexts("SELECT CAST(count(*) AS TEXT) FROM \"_cloner_blob_chunks\"") } == ["0"])
        #expect(try store.read { try $0.checkBlobs(limit: 10) }.isEmpty)
    }

    @Test(arguments: StoreBackendKind.available) func theDatabaseRefusesAMissingBlobAndDeletingAUsedOne(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let id = try store.save(ChangeSet(inserts: [Self.noteWith("a", data: Data("x".utf8))])).insertedIDs[0]
        let missing = String(repeating: "ab", count: 32)
        let pointAtNothing =
            kind == .sqlite
            ? "UPDATE \"Note\" SET \"data\" = X'\(missing)' WHERE \"_id\" = \(id)"
            : "UPDATE \"Note\" SET \"data\" = '\\x\(missing)'::bytea WHERE \"_id\" = \(id)"
        #expect(throws: (any Error).self) { try store.write { _ = try $0.rawTexts(pointAtNothing) } }
        #expect(throws: (any Error).self) { try store.write { _ = try $0.rawTexts("DELETE FROM \"_cloner_blobs\"") } }
        #expect(try Self.blobCount(store) == 1)
    }

    @Test(arguments: StoreBackendKind.available) func checkBlobsNamesWhatIsWrong(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        try store.save(ChangeSet(inserts: [Self.noteWith("a", data: Data("kept".utf8))]))
        let stray = BlobDigest.sha256(Data("stray".utf8))
        let bad = BlobDigest.sha256(Data("right".utf8))
        func literal(_ data: Data) -> String { kind == .sqlite ? "X'\(data.lowercaseHex)'" : "'\\x\(data.lowercaseHex)'::bytea" }
        try store.write { context in
            _ = try context.rawTexts("INSERT INTO \"_cloner_blobs\" (\"hash\", \"size\") VALUES (\(literal(stray)), 5)")
            _ = try context.rawTexts(
                "INSERT INTO \"_cloner_blob_chunks\" (\"hash\", \"n\", \"bytes\") VALUES (\(literal(stray)), 0, \(literal(Data("stray".utf8))))")
            _ = try context.rawTexts("INSERT INTO \"_cloner_blobs\" (\"hash\", \"size\") VALUES (\(literal(bad)), 5)")
            _ = try context.rawTexts(
                "INSERT INTO \"_cloner_blob_chunks\" (\"hash\", \"n\", \"bytes\") VALUES (\(literal(bad)), 0, \(literal(Data("wrong".utf8))))")
            _ = try context.rawTexts("UPDATE \"Note\" SET \"data\" = \(literal(bad))")
        }
        let problems = try store.read { try $0.checkBlobs(limit: 10) }
        #expect(problems.contains(.unreferencedBlob(hash: stray.lowercaseHex, size: 5)))
        #expect(problems.contains(.unreferencedBlob(hash: BlobDigest.sha256(Data("kept".utf8)).lowercaseHex, size: 4)))
        #expect(problems.contains { if case .corruptBlob(bad.lowercaseHex, _) = $0 { return true } else { return false } })
        #expect(problems.count == 3, "\(problems)")
    }

    /// The check reads chunks by key in runs across pages of blobs: a store of more blobs than
    /// one page, with a blob of several chunks, is clean; a middle chunk removed, and a blob past
    /// the first page damaged, are each named.
    @Test(arguments: StoreBackendKind.available) func checkBlobsScansPagesAndChunks(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let large = Data((0..<(3 * StoreSchema.blobChunkSize + 7)).map { UInt8(truncatingIfNeeded: $0 % 249) })
        var inserts = [Self.noteWith("large", data: large)]
        inserts += (0..<300).map { Self.noteWith("n\($0)", data: Data("value \($0)".utf8)) }
        try store.save(ChangeSet(inserts: inserts))
        #expect(try store.read { try $0.checkBlobs(limit: 10) }.isEmpty)

        let largeKey = BlobDigest.sha256(large)
        // The last blob by key, beyond the first page of blobs.
        let lastKey = (0..<300).map { BlobDigest.sha256(Data("value \($0)".utf8)) }.max { $0.lexicographicallyPrecedes($1) }!
        func literal(_ data: Data) -> String { kind == .sqlite ? "X'\(data.lowercaseHex)'" : "'\\x\(data.lowercaseHex)'::bytea" }
        try store.write { context in
            _ = try context.rawTexts("DELETE FROM \"_cloner_blob_chunks\" WHERE \"hash\" = \(literal(largeKey)) AND \"n\" = 1")
            _ = try context.rawTexts("UPDATE \"_cloner_blob_chunks\" SET \"bytes\" = \(literal(Data("other".utf8))) WHERE \"hash\" = \(literal(lastKey))")
        }
        let problems = try store.read { try $0.checkBlobs(limit: 10) }
        #expect(problems.contains(.corruptBlob(hash: largeKey.lowercaseHex, reason: "chunk 1 is missing")), "\(problems)")
        #expect(problems.contains { if case .corruptBlob(lastKey.lowercaseHex, _) = $0 { return true } else { return false } }, "\(problems)")
        #expect(problems.count == 2, "\(problems)")
    }

    /// An upload cut short leaves a pending blob and the whole chunks it wrote, as the service
    /// writes them: it is named as a pending upload, not as a corrupt or unreferenced blob.
    @Test(arguments: StoreBackendKind.available) func checkBlobsNamesAPendingUploadAsSuch(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        try store.save(ChangeSet(inserts: [Self.noteWith("a", data: Data("kept".utf8))]))
        let key = Data((0..<32).map { UInt8(100 + $0) })
        let chunk = Data(repeating: 9, count: StoreSchema.blobChunkSize)
        try store.write { try $0.beginUpload(key: key) }
        for number in 0..<2 { try store.write { try $0.appendUpload(key: key, number: Int64(number), bytes: chunk) } }
        let found = try store.read { try $0.checkBlobs(limit: 10) }
        #expect(found == [.pendingUpload(key: key.lowercaseHex, chunks: 2, bytes: 2 * Int64(StoreSchema.blobChunkSize))], "\(found)")
        #expect(found.allSatisfy { !$0.isInconsistency })
        #expect(found.first?.description.contains("pending upload") == true)
        // One just begun, no chunk yet; and a real problem beside them comes first.
        let fresh = Data(repeating: 1, count: 32)
        try store.write { try $0.beginUpload(key: fresh) }
        try store.save(ChangeSet(inserts: [Self.noteWith("b", data: Data("other".utf8))]))
        try store.write { _ = try $0.rawTexts("UPDATE \"Note\" SET \"data\" = NULL WHERE \"name\" = 'b'") }
        let mixed = try store.read { try $0.checkBlobs(limit: 10) }
        #expect(
            mixed == [
                .unreferencedBlob(hash: BlobDigest.sha256(Data("other".utf8)).lowercaseHex, size: 5),
                .pendingUpload(key: fresh.lowercaseHex, chunks: 0, bytes: 0),
                .pendingUpload(key: key.lowercaseHex, chunks: 2, bytes: 2 * Int64(StoreSchema.blobChunkSize)),
            ], "\(mixed)")
        #expect(try store.read { try $0.checkBlobs(limit: 1) }.count == 1, "the limit holds")
    }

    @Test(arguments: StoreBackendKind.available) func streamsRangesChunkByChunk(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let store = try StoreFixtures.openStore(place)
        let bytes = Data((0..<(2 * StoreSchema.blobChunkSize + 10)).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let id = try store.save(ChangeSet(inserts: [Self.noteWith("a", data: bytes)])).insertedIDs[0]
        let reference = try #require(try store.read { try $0.blobReference(entity: "Note", id: id, attribute: "data") })
        #expect(reference.hash == BlobDigest.sha256(bytes) && reference.size == Int64(bytes.count))
        let size = Int64(StoreSchema.blobChunkSize)
        for range in [0..<Int64(bytes.count), 5..<6, (size - 3)..<(2 * size + 4), (2 * size)..<(2 * size + 10)] {
            var parts: [Data] = []
            let found = try store.read { try $0.readBlob(hash: reference.hash, range: range) { parts.append($0) } }
            #expect(found)
            #expect(parts.allSatisfy { $0.count <= StoreSchema.blobChunkSize })
            #expect(parts.reduce(Data(), +) == bytes.subdata(in: Int(range.lowerBound)..<Int(range.upperBound)), "\(range)")
        }
        #expect(try store.read { try $0.readBlob(hash: Data(repeating: 0, count: 32), range: 0..<1) { _ in } } == false)
    }

    /// A binary default is kept while the model names it, referenced or not.
    @Test(arguments: StoreBackendKind.available) func aBinaryDefaultIsStoredAndNeverSwept(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let logo = Data("logo".utf8)
        let model = StoreFixtures.notesModel(extraNoteAttributes: [AttributeDescription(name: "icon", type: .binary, defaultValue: .binary(logo))])
        let store = try StoreFixtures.openStore(place, model: model)
        let id = try store.save(ChangeSet(inserts: [StoreFixtures.note("a")])).insertedIDs[0]
        #expect(try store.object("Note", id)?.attributes["icon"] == .binary(logo))
        try store.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Note", id: id)]))
        #expect(try Self.blobCount(store) == 1)
        #expect(try store.read { try $0.checkBlobs(limit: 10) }.isEmpty)
    }

    // MARK: - migration of a store written before blobs

    /// Writes, at `place`, the store the previous format made for `model`: today's DDL without
    /// the blob tables and references (binary columns hold their bytes), metadata of format 1,
    /// and `rows` notes with the given values.
    static func writeOldLayout(_ place: StorePlace, model: DataModel, values: [Data?]) throws {
        let schema = StoreSchema(model: model)
        let snapshot = SchemaSnapshot(model: model)
        var metadata = StoreMetadata.created(uuid: UUID().uuidString.lowercased(), snapshot: snapshot)
        metadata["format_version"] = IncrementalStore.formatVersionBeforeBlobs
        // The blob tables, a binary column's index and (PostgreSQL) its constraint.
        func isBlobPart(_ sql: String) -> Bool {
            StoreSchema.blobCreateStatements.contains(sql) || PostgreSQLSchema.blobCreateStatements.contains(sql)
                || sql.contains("_blob\" ON") || sql.contains("_blobref")
        }
        switch place.location {
        case .sqlite(let path):
            let connection = try SQLiteConnection(path: path)
            try connection.execute("CREATE TABLE \"_cloner_meta\" (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            for statement in SQLiteDialect.createStatements(for: schema) where !isBlobPart(statement) {
                try connection.execute(statement.replacingOccurrences(of: " REFERENCES \"_cloner_blobs\"(\"hash\")", with: ""))
            }
            for (key, value) in metadata { try connection.execute("INSERT INTO \"_cloner_meta\" VALUES (?, ?)", [.text(key), .text(value)]) }
            for (index, value) in values.enumerated() {
                try connection.execute(
                    "INSERT INTO \"Note\" (\"id\", \"createDate\", \"index\", \"data\") VALUES (?, 0, ?, ?)",
                    [.text(UUID().uuidString.lowercased()), .integer(Int64(index)), value.map { .blob($0) } ?? .null])
            }
        case .postgreSQL(let uri):
            let connection = try PostgreSQLConnection(uri: uri)
            try connection.execute(PostgreSQLDialect.metadataTableStatement)
            for statement in PostgreSQLDialect.createStatements(for: schema) where !isBlobPart(statement) {
                try connection.execute(statement)
            }
            for (key, value) in metadata { _ = try connection.query("INSERT INTO \"_cloner_meta\" VALUES ($1, $2)", [.text(key), .text(value)]) }
            for (index, value) in values.enumerated() {
                _ = try connection.query(
                    "INSERT INTO \"Note\" (\"id\", \"createDate\", \"index\", \"data\") VALUES ($1, now(), $2, $3)",
                    [.uuid(UUID()), .int8(Int64(index)), value.map { .bytea($0) } ?? .null])
            }
        }
    }

    @Test(arguments: StoreBackendKind.available) func migratesAStoreWrittenBeforeBlobs(_ kind: StoreBackendKind) throws {
        let place = try StorePlace(kind)
        let model = StoreFixtures.notesModel()
        let big = Data((0..<(StoreSchema.blobChunkSize + 3)).map { UInt8(truncatingIfNeeded: $0 * 31) })
        var values: [Data?] = (0..<1_203).map { Data("value \($0 % 400)".utf8) }
        values[7] = nil
        values[8] = big
        values[9] = big
        values[10] = Data()
        try Self.writeOldLayout(place, model: model, values: values)

        let lines = LockedLines()
        let store = try IncrementalStore(location: place.location, model: model, maximumConnections: 4, log: { lines.append($0) })
        #expect(lines.all.contains { $0.contains("moving 1202 values of Note.data") }, "\(lines.all)")
        #expect(lines.all.count > 2, "progress while it moves: \(lines.all)")
        let notes = try store.read { context in
            try context.fetchObjects(entity: "Note", ids: try context.fetchIDs(FetchRequest(entity: "Note")))
        }
        #expect(notes.count == values.count)
        for (index, note) in notes.enumerated() {
            #expect(note.attributes["data"] == (values[index].map(AttributeValue.binary) ?? .null), "row \(index)")
        }
        #expect(try Self.blobCount(store) == 400 + 2, "one per distinct content")
        #expect(try store.read { try $0.checkBlobs(limit: 10) }.isEmpty)
        // The migrated store behaves as a new one: the references are enforced and swept.
        try store.save(ChangeSet(deletes: [ChangeSet.Delete(entity: "Note", id: notes[8].id), ChangeSet.Delete(entity: "Note", id: notes[9].id)]))
        #expect(try Self.blobCount(store) == 400 + 1)
        // Opened again: nothing left to migrate.
        let again = LockedLines()
        _ = try IncrementalStore(location: place.location, model: model, maximumConnections: 4, log: { again.append($0) })
        #expect(again.all.isEmpty)
    }
}

extension SharedBlobStoreTests {
    /// A SQLite migration cut off after its first batch (the column set aside, 500 values moved
    /// and cleared from it, the format version not yet written) picks up where it stopped.
    @Test func aBlobMigrationCutOffOnSQLiteResumesWhereItStopped() throws {
        let place = try StorePlace(.sqlite)
        let model = StoreFixtures.notesModel()
        let values: [Data?] = (0..<1_100).map { Data("value \($0 % 300)".utf8) }
        try Self.writeOldLayout(place, model: model, values: values)
        guard case .sqlite(let path) = place.location else { return }
        let connection = try SQLiteConnection(path: path)
        for statement in SQLiteDialect.blobTableStatements { try connection.execute(statement) }
        try connection.execute("ALTER TABLE \"Note\" RENAME COLUMN \"data\" TO \"_old_data\"")
        try connection.execute("ALTER TABLE \"Note\" ADD COLUMN \"data\" BLOB REFERENCES \"_cloner_blobs\"(\"hash\")")
        let first = try #require(try SQLiteStore.moveBinaryValues(of: "Note", column: "data", aside: "_old_data", after: .min, on: connection))
        #expect(first.moved == SQLiteStore.blobMigrationBatch)

        let lines = LockedLines()
        let store = try IncrementalStore(location: place.location, model: model, maximumConnections: 4, log: { lines.append($0) })
        #expect(lines.all.contains { $0.contains("moving 600 values of Note.data") }, "only the rows not yet moved: \(lines.all)")
        let notes = try store.read { context in
            try context.fetchObjects(entity: "Note", ids: try context.fetchIDs(FetchRequest(entity: "Note")))
        }
        #expect(notes.map { $0.attributes["data"] } == values.map { $0.map(AttributeValue.binary) ?? .null })
        #expect(try Self.blobCount(store) == 300)
        #expect(try store.read { try $0.checkBlobs(limit: 10) }.isEmpty)
    }
}

/// Log lines collected from whichever thread writes them.
final class LockedLines: @unchecked Sendable {
    // @unchecked: every access to `lines` goes through `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
