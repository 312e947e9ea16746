import ClonerModel
import Foundation

extension SQLiteStoreContext {
    /// Records by `_id` for an answer: the rows by position (no dictionary per row), with SQL
    /// built once per schema and statements prepared once per connection; one query for the rows
    /// (`= ?` for one `_id`) plus one per relationship stored elsewhere, and the binary values
    /// (`readBinaryValues`).
    public func fetchRecords(entity name: String, ids: [Int64], inlineBinaryBytes: Int) throws -> StoredRecords {
        let reads = readSQL.reads(name)
        var records = StoredRecords(entity: reads.entity, capacity: ids.count)
        guard !ids.isEmpty else { return records }
        if ids.count == 1 {
            let statement = try connection.preparedStatement(slot: reads.byID.slot, sql: reads.byID.sql)
            try statement.forEachRow([.integer(ids[0])]) { row in append(row, from: 0, reads, to: &records) }
            try addRelated(reads, to: &records)
        } else {
            let statement = try connection.preparedStatement(slot: reads.byIDs.slot, sql: reads.byIDs.sql)
            var byID: [Int64: Int] = [:]
            byID.reserveCapacity(ids.count)
            var unordered = StoredRecords(entity: reads.entity, capacity: ids.count)
            try statement.forEachRow([SQLiteStoreContext.idArray(ids)]) { row in
                byID[row.int64(0)] = unordered.count
                append(row, from: 0, reads, to: &unordered)
            }
            try addRelated(reads, to: &unordered)
            // Back into the order of `ids`, missing ones left out (a repeated id repeated, as
            // `fetchObjects` does).
            for id in ids {
                guard let index = byID[id] else { continue }
                records.appendRecord(index, of: unordered)
            }
        }
        try readBinaryValues(in: &records, inlineBytes: inlineBinaryBytes)
        return records
    }

    /// A page in one query that reads the records with their sort keys (no second query by `_id`),
    /// plus one per relationship stored elsewhere for the whole page. A row's text is measured in
    /// SQLite's buffer before it is copied, so a page that ends at `textBytes` never copies the
    /// row it leaves for the next page.
    public func fetchRecordPage(_ request: FetchRequest, pageSize: Int, inlineBinaryBytes: Int, textBytes: Int) throws -> RecordPage {
        precondition(pageSize > 0, "a page of \(pageSize) records")
        let reads = readSQL.reads(request.entity)
        let keys = try pageKeys(request)
        var records = StoredRecords(entity: reads.entity, capacity: min(pageSize, 64))
        var lastPosition: FetchRequest.Position?
        var hasMore = false
        let sortColumns = Int32(keys.count)
        let textColumns =
            textBytes < .max ? reads.entity.attributes.indices.filter { reads.entity.attributes[$0].type.isText }.map { sortColumns + 2 + Int32($0) } : []
        var pageText = 0
        try forEachPageRow(request, keys: keys, limit: pageSize + 1, withRecords: true) { row in
            guard !hasMore else { return }
            guard records.count < pageSize else {
                // The row after the page: it only says that a next page exists.
                hasMore = true
                return
            }
            if !textColumns.isEmpty {
                let text = textColumns.reduce(0) { $0 + row.byteCount($1) }
                if records.count > 0 && text > textBytes - pageText {
                    // Past the page's text: this record starts the next page.
                    hasMore = true
                    return
                }
                pageText += text
            }
            append(row, from: sortColumns, reads, to: &records)
            if records.count == pageSize || !textColumns.isEmpty {
                // The page's last record so far: where the next page starts, if there is one.
                lastPosition = FetchRequest.Position(values: (0..<sortColumns).map { row[$0].positionValue })
            }
        }
        try addRelated(reads, to: &records)
        try readBinaryValues(in: &records, inlineBytes: inlineBinaryBytes)
        return RecordPage(records: records, lastPosition: hasMore ? lastPosition : nil, hasMore: hasMore)
    }

    /// Appends the record in `row`, whose record columns (`reads.columns`) start at `base`; the
    /// relationships stored elsewhere are filled in by `addRelated`.
    private func append(_ row: SQLiteRow, from base: Int32, _ reads: SQLiteReadSQL.EntityReads, to records: inout StoredRecords) {
        records.appendRecord(row, from: Int(base), ownToOnes: reads.ownToOnes, blobColumns: reads.blobColumns)
    }

    /// Fills in the relationships stored outside the records' rows: one statement per relationship
    /// for all of `records`.
    private func addRelated(_ reads: SQLiteReadSQL.EntityReads, to records: inout StoredRecords) throws {
        guard records.count > 0, !reads.related.isEmpty else { return }
        var indexByID: [Int64: Int] = [:]
        if records.count > 1 {
            indexByID.reserveCapacity(records.count)
            for (index, id) in records.ids.enumerated() { indexByID[id] = index }
        }
        let idArray = records.count > 1 ? SQLiteStoreContext.idArray(records.ids) : .null
        for related in reads.related {
            let statement: SQLiteStatement
            let values: [SQLiteValue]
            if records.count == 1 {
                statement = try connection.preparedStatement(slot: related.forOne.slot, sql: related.forOne.sql)
                values = [.integer(records.ids[0])]
            } else {
                statement = try connection.preparedStatement(slot: related.forMany.slot, sql: related.forMany.sql)
                values = [idArray]
            }
            // Rows come grouped by source: each group's list is set once.
            var source: Int64?
            var list: [Int64] = []
            func flush() {
                guard let source, let index = records.count == 1 ? 0 : indexByID[source] else { return }
                records.setRelationship(related.isToMany ? .toMany(list) : .toOne(list.first), record: index, relationship: related.relationship)
            }
            try statement.forEachRow(values) { row in
                let id = row.int64(0)
                if id != source {
                    flush()
                    source = id
                    list = []
                }
                list.append(row.int64(1))
            }
            flush()
        }
    }
}
