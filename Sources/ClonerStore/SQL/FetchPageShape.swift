import ClonerModel

/// Everything a page query's SQL text depends on — which properties are filtered and whether on
/// NULL, the order, which cursor values are NULL, whether there is a limit — and nothing it binds.
/// Requests of one shape share one statement, prepared once per connection
/// where the backend keeps statements by shape (`SQLiteConnection.statement(for:sql:)`):
/// `GET /items?note=1` and `?note=2` build no SQL.
struct FetchPageShape: Hashable {
    struct Predicate: Hashable {
        var property: String
        /// `IS NULL` rather than `= ?`.
        var isNull: Bool
    }

    var entity: String
    var predicates: [Predicate]
    var sort: [FetchRequest.Sort]
    /// One flag per sort key, `_id` last: whether the cursor's value there is NULL (which changes
    /// the keyset condition); nil without a cursor.
    var cursorNulls: [Bool]?
    var limited: Bool
    /// Whether the record's columns follow the sort keys (`fetchRecordPage`).
    var withRecords: Bool
}
