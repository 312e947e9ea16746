/// The rows of a record read's relationships stored elsewhere (`SQLRecordReads.Related`), set on
/// the records as they come: each query's rows come together and grouped by source, so a
/// source's list is set once, when the next source or query begins (or at `finish`).
struct SQLRelatedRows {
    private let related: [SQLRecordReads.Related]
    private var current: (query: Int, source: Int64)?
    private var list: [Int64] = []
    private var places: [Int64] = []

    init(_ reads: SQLRecordReads) {
        related = reads.related
    }

    /// A `(source, destination[, place])` row of `related[query]`; `index` finds the source's
    /// record (nil: not one of them).
    mutating func add<Row: SQLRow>(_ row: Row, of query: Int, to records: inout StoredRecords, index: (Int64) -> Int?) {
        let source = row.int64(0)
        if current?.query != query || current?.source != source {
            finish(into: &records, index: index)
            current = (query, source)
        }
        list.append(row.int64(1))
        if related[query].readsPlaces { places.append(row.optionalInt64(2) ?? .min) }
    }

    /// Sets the list gathered last.
    mutating func finish(into records: inout StoredRecords, index: (Int64) -> Int?) {
        defer {
            current = nil
            list = []
            places = []
        }
        guard let (query, source) = current, let record = index(source) else { return }
        let relationship = related[query]
        records.setRelationship(relationship.isToMany ? .toMany(list) : .toOne(list.first), record: record, relationship: relationship.relationship)
        if relationship.readsPlaces { records.setPlaces(places, record: record, relationship: relationship.relationship) }
    }
}
