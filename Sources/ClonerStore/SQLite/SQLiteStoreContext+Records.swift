import ClonerModel
import Foundation

extension SQLiteStoreContext {
    /// A page in one query that reads the records with their sort keys (no second query by `_id`),
    /// plus one per relationship stored elsewhere for the whole page. A row's text is measured in
    /// SQLite's buffer before it is copied, so a page that ends at `textBytes` never copies the
    /// row it leaves for the next page.
    public func fetchRecordPage(_ request: FetchRequest, pageSize: Int, inlineBinaryBytes: Int, textBytes: Int) throws -> RecordPage {
        precondition(pageSize > 0, "a page of \(pageSize) records")
        let reads = recordReads(request.entity)
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
            records.appendRecord(row, from: Int(sortColumns), ownToOnes: reads.ownToOnes, blobColumns: reads.blobColumns)
            if records.count == pageSize || !textColumns.isEmpty {
                // The page's last record so far: where the next page starts, if there is one.
                lastPosition = FetchRequest.Position(values: (0..<sortColumns).map { row[$0].positionValue })
            }
        }
        try addRelated(reads, to: &records)
        try readBinaryValues(in: &records, inlineBytes: inlineBinaryBytes)
        return RecordPage(records: records, lastPosition: hasMore ? lastPosition : nil, hasMore: hasMore)
    }
}
