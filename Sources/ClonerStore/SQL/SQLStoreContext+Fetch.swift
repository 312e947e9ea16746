import ClonerModel
import Foundation

/// Object reads the same on every backend (the page queries are `SQLStoreContext+Pages`): the
/// statements are `SQLRecordReads`', kept where the backend keeps them (`recordReads`).
extension SQLStoreContext {
    /// The `_id`s matching a request, in its order: one query, however many objects.
    func fetchIDs(_ request: FetchRequest) throws -> [Int64] {
        try fetchPositions(request).map(\.id)
    }

    /// One object with its attributes and relationships, or nil if there is none with that `_id`.
    func fetchObject(entity: String, id: Int64) throws -> StoredObject? {
        try fetchObjects(entity: entity, ids: [id]).first
    }

    /// Objects in the order of `ids` (missing ones left out), with every relationship and every
    /// binary value: `fetchRecords`, by name.
    func fetchObjects(entity name: String, ids: [Int64]) throws -> [StoredObject] {
        let records = try fetchRecords(entity: name, ids: ids, inlineBinaryBytes: .max)
        return (0..<records.count).map { records.object(at: $0) }
    }

    /// Records in the order of `ids` (missing ones left out, a repeated one repeated), by position:
    /// one query for the rows (`SQLRecordColumns`) plus one per relationship stored elsewhere, for
    /// the whole batch, and the binary values the row did not read (`readBinaryValues`).
    func fetchRecords(entity name: String, ids: [Int64], inlineBinaryBytes: Int) throws -> StoredRecords {
        var records = try readRecords(entity: name, ids: ids)
        try readBinaryValues(in: &records, inlineBytes: inlineBinaryBytes)
        return records
    }

    func currentRecords(entity name: String, ids: [Int64]) throws -> StoredRecords {
        try readRecords(entity: name, ids: ids)
    }

    /// `fetchRecords` but for the binary values the rows did not read (`StoredRecords.unreadBinaries`):
    /// the rows by position (no dictionary per row), one query for them (`= ?` for one `_id`)
    /// plus one per relationship stored elsewhere, all asked together (`forEachRow(of:)`: one
    /// round trip on PostgreSQL), since the related rows are asked by the same `_id`s.
    func readRecords(entity name: String, ids: [Int64]) throws -> StoredRecords {
        let reads = recordReads(name)
        var unordered = StoredRecords(entity: reads.entity, capacity: ids.count)
        guard !ids.isEmpty else { return unordered }
        let one = ids.count == 1
        var byID: [Int64: Int] = [:]
        if !one { byID.reserveCapacity(ids.count) }
        let arguments: [SQLArgument] = one ? [.integer(ids[0])] : [.ids(ids)]
        var related = SQLRelatedRows(reads)
        try forEachRow(of: [(one ? reads.byID : reads.byIDs, arguments)] + reads.related.map { (one ? $0.forOne : $0.forMany, arguments) }) {
            query, row in
            guard query == 0 else {
                return related.add(row, of: query - 1, to: &unordered) { one ? 0 : byID[$0] }
            }
            if !one { byID[row.int64(0)] = unordered.count }
            unordered.appendRecord(row, from: 0, ownToOnes: reads.ownToOnes, blobColumns: reads.blobColumns, clonedFrom: reads.clonedFromColumn)
        }
        related.finish(into: &unordered) { one ? 0 : byID[$0] }
        guard !one else { return unordered }
        // Back into the order of `ids`, missing ones left out (a repeated id repeated, as
        // `fetchObjects` does).
        var records = StoredRecords(entity: reads.entity, capacity: ids.count)
        for id in ids {
            guard let index = byID[id] else { continue }
            records.appendRecord(index, of: unordered)
        }
        return records
    }

    /// Fills in the relationships stored outside the records' rows: one statement per relationship
    /// for all of `records`, asked together.
    func addRelated(_ reads: SQLRecordReads, to records: inout StoredRecords) throws {
        guard records.count > 0, !reads.related.isEmpty else { return }
        var indexByID: [Int64: Int] = [:]
        if records.count > 1 {
            indexByID.reserveCapacity(records.count)
            for (index, id) in records.ids.enumerated() { indexByID[id] = index }
        }
        let one = records.count == 1
        let arguments: [SQLArgument] = one ? [.integer(records.ids[0])] : [.ids(records.ids)]
        var related = SQLRelatedRows(reads)
        try forEachRow(of: reads.related.map { (one ? $0.forOne : $0.forMany, arguments) }) { query, row in
            related.add(row, of: query, to: &records) { one ? 0 : indexByID[$0] }
        }
        related.finish(into: &records) { one ? 0 : indexByID[$0] }
    }

    func textBytes(entity name: String, ids: [Int64]) throws -> [Int] {
        let entity = entity(name)
        let texts = entity.attributes.filter { $0.type.isText }
        guard !texts.isEmpty, !ids.isEmpty else { return ids.map { _ in 0 } }
        let sum = texts.map { "coalesce(\(Dialect.octetLength(quoted($0.name))), 0)" }.joined(separator: " + ")
        var byID: [Int64: Int] = [:]
        byID.reserveCapacity(ids.count)
        try connection.forEachRow("SELECT \"_id\", \(sum) FROM \(quoted(name)) WHERE \"_id\" \(Dialect.among(1))", arguments: [.ids(ids)]) {
            byID[$0.int64(0)] = Int(clamping: $0.int64(1))
        }
        return ids.map { byID[$0] ?? 0 }
    }

    /// Destination `_id`s of one relationship for many sources at once, in order when ordered (a
    /// NULL position first, as SQLite sorts it), else by `_id`: one query.
    func destinationIDs(of relationship: RelationshipDescription, for sources: [Int64]) throws -> [Int64: [Int64]] {
        guard !sources.isEmpty else { return [:] }
        let sql = SQLRecordReads.destinationsSQL(schema.join(for: relationship), sources: Dialect.among(1), dialect: Dialect.self)
        var result: [Int64: [Int64]] = [:]
        try connection.forEachRow(sql, arguments: [.ids(sources)]) { row in
            result[row.int64(0), default: []].append(row.int64(1))
        }
        return result
    }

    /// Current version of an object, or nil if it does not exist.
    func version(entity: String, id: Int64) throws -> Int64? {
        try connection.int64(Self.versionSQL(entity: entity), arguments: [.integer(id)])
    }

    /// The version of the object of `entity` whose `_id` is the first parameter.
    static func versionSQL(entity: String) -> String { "SELECT \"_version\" FROM \(quoted(entity)) WHERE \"_id\" = \(Dialect.parameter(1))" }
}
