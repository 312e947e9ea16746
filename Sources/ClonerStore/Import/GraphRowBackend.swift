import ClonerModel

/// What `GraphRowWriter` needs of a backend: fresh ids, and rows written a batch at a time in its
/// own dialect. Everything else the writer does (which column a link goes to, positions, version
/// steps, checks) it decides once for both backends.
protocol GraphRowBackend: ChangeSetWriter {
    var schema: StoreSchema { get }
    /// `count` new `_id`s of `entity`, ascending, after `last` (the highest this import took
    /// before, nil for its first): ids no other writer is given.
    func newIDs(entity: String, after last: Int64?, count: Int) throws -> [Int64]
    /// Inserts rows into `table`: each row one value per column (`type` nil for an `_id`, a
    /// reference or a position, as `.integer` or `.null`), binary values stored as blobs. With
    /// `ignoringDuplicates`, a row whose key is there already is skipped (a join row both sides
    /// of a self-inverse pair write).
    func insertRows(
        table: String, columns: [(name: String, type: AttributeType?)], rows: [[AttributeValue]], entity: String,
        ignoringDuplicates: Bool) throws
    /// Sets reference or position columns of a row written before (a link that came later).
    func setColumns(table: String, id: Int64, _ values: [(column: String, value: Int64?)]) throws
    /// Runs `sql` (written with `IDS` where the backend's "is one of these ids" belongs: the
    /// column before it is compared with every id of `ids`).
    func execute(_ sql: String, ids: [Int64]) throws
    /// Which of `values` (each one value per attribute of `key`) an object of `entity` holds:
    /// their index in `values` with that object's `_id`. One statement.
    func findIDs(entity: EntityDescription, key: [AttributeDescription], values: [[AttributeValue]]) throws -> [(Int, Int64)]
}
