import ClonerModel
import Foundation

/// Object reads the same on every backend; the page queries (`fetchPositions`) and the read
/// routes' records stay each backend's own, tuned to how it plans and caches statements.
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

    /// `fetchRecords` but for the binary values the rows did not read (`StoredRecords.unreadBinaries`).
    func readRecords(entity name: String, ids: [Int64]) throws -> StoredRecords {
        let entity = entity(name)
        var records = StoredRecords(entity: entity, capacity: ids.count)
        guard !ids.isEmpty else { return records }
        var own: [(relationship: Int, column: String)] = []
        for (index, relationship) in entity.relationships.enumerated() {
            if case .foreignKeyOnSource(let column) = schema.storage(of: relationship) { own.append((index, column)) }
        }
        let blobColumns = SQLRecordColumns.blobColumns(entity: entity, ownColumns: own.count)
        let ownToOnes = own.enumerated().map { (relationship: $1.relationship, column: 2 + entity.attributes.count + $0) }
        let sql =
            "SELECT " + SQLRecordColumns.selectList(entity: entity, ownColumns: own.map(\.column)).joined(separator: ", ")
            + " FROM \(quoted(name)) WHERE \"_id\" \(Dialect.among(1))"
        var found = StoredRecords(entity: entity, capacity: ids.count)
        var indexByID: [Int64: Int] = [:]
        indexByID.reserveCapacity(ids.count)
        try connection.forEachRow(sql, arguments: [.ids(ids)]) { row in
            indexByID[row.int64(0)] = found.count
            found.appendRecord(row, from: 0, ownToOnes: ownToOnes, blobColumns: blobColumns)
        }
        for (index, relationship) in entity.relationships.enumerated() where !own.contains(where: { $0.relationship == index }) {
            let destinations = try destinationIDs(of: relationship, for: found.ids)
            for (record, id) in found.ids.enumerated() {
                let list = destinations[id] ?? []
                found.setRelationship(relationship.isToMany ? .toMany(list) : .toOne(list.first), record: record, relationship: index)
            }
        }
        for id in ids {
            if let index = indexByID[id] { records.appendRecord(index, of: found) }
        }
        return records
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
        let join = schema.join(for: relationship)
        let source = quoted(join.sourceColumn)
        let destination = quoted(join.destinationColumn)
        let order = [source] + (join.positionColumn.map { [Dialect.ascendingNullsFirst(quoted($0))] } ?? []) + [destination]
        let sql =
            "SELECT \(source), \(destination) FROM \(quoted(join.table)) WHERE \(source) \(Dialect.among(1)) "
            + "AND \(destination) IS NOT NULL ORDER BY \(order.joined(separator: ", "))"
        var result: [Int64: [Int64]] = [:]
        try connection.forEachRow(sql, arguments: [.ids(sources)]) { row in
            result[row.int64(0), default: []].append(row.int64(1))
        }
        return result
    }

    /// Current version of an object, or nil if it does not exist.
    func version(entity: String, id: Int64) throws -> Int64? {
        try connection.int64("SELECT \"_version\" FROM \(quoted(entity)) WHERE \"_id\" = \(Dialect.parameter(1))", arguments: [.integer(id)])
    }
}
