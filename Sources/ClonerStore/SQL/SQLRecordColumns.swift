import ClonerModel

/// The select list of a record read, the same on every backend (`fetchRecords`, `fetchObjects`,
/// a page of records): `"_id"`, `"_version"`, the attributes, the to-one columns stored on the
/// row, the key and the size of each binary value, then the source it was cloned from. The FROM
/// names the entity's table unaliased.
///
/// A binary attribute's column holds its blob's key. The row reads the bytes of a value of at
/// most `rowBinaryBytes` with it (its one chunk), so a record of small values — thumbnails, the
/// sample model's notes — costs no query more than the row; a larger value's bytes are read
/// afterwards, only when the answer carries it (`readBinaryValues`), never for a page of records
/// that share a value of a hundred megabytes.
enum SQLRecordColumns {
    /// Values up to this many bytes are read with their row. A page of 1000 records reads at most
    /// 16 MiB this way even when its answer carries none of them.
    static let rowBinaryBytes = 16 << 10

    /// The subqueries' aliases: names no entity can take (the `_cloner_` prefix is the store's),
    /// so the record's table, named unaliased, is never shadowed — SQLite compares names without
    /// case, so an entity `C` would otherwise be the chunk table `c`.
    static let chunk = "\"_cloner_c\"", blob = "\"_cloner_b\""

    /// The select list for `entity`, with `ownColumns` (the to-one columns stored on its rows) after
    /// the attributes.
    static func selectList(entity: EntityDescription, ownColumns: [String]) -> [String] {
        let table = quoted(entity.name)
        let values = entity.attributes.map { attribute -> String in
            guard attribute.type == .binary else { return quoted(attribute.name) }
            // A value of at most `rowBinaryBytes` is one chunk as the service writes it, and a
            // larger one's first chunk is longer than that: `length` (which reads neither a SQLite
            // overflow page nor a TOAST value) tells them apart without the blob's row. Chunks an
            // import wrote may be shorter: the readers compare the bytes with the size and read a
            // value whose first chunk is not all of it afterwards (`noteUnreadBinary`).
            return "(SELECT \(chunk).\"bytes\" FROM \(quoted(StoreSchema.blobChunkTable)) \(chunk) "
                + "WHERE \(chunk).\"hash\" = \(table).\(quoted(attribute.name)) AND \(chunk).\"n\" = 0 AND length(\(chunk).\"bytes\") <= \(rowBinaryBytes))"
        }
        let blobs = entity.attributes.filter { $0.type == .binary }.flatMap { attribute in
            [
                "\(table).\(quoted(attribute.name))",
                "(SELECT \(blob).\"size\" FROM \(quoted(StoreSchema.blobTable)) \(blob) WHERE \(blob).\"hash\" = \(table).\(quoted(attribute.name)))",
            ]
        }
        return ["\"_id\"", "\"_version\""] + values + ownColumns.map(quoted) + blobs + [clonedFrom(entity: entity)]
    }

    /// The lineage table's alias, a name no entity can take, as `chunk` and `blob` are.
    static let lineage = "\"_cloner_l\""

    /// The source the record was cloned from, or NULL (docs/architecture.md#lineage): one lookup
    /// by the lineage table's key in the record's own query, so a page of records costs no query
    /// more for it.
    static func clonedFrom(entity: EntityDescription) -> String {
        let name = "'" + entity.name.replacingOccurrences(of: "'", with: "''") + "'"
        return "(SELECT \(lineage).\"source_id\" FROM \(ServiceTables.quotedLineage) \(lineage) "
            + "WHERE \(lineage).\"entity\" = \(name) AND \(lineage).\"clone_id\" = \(quoted(entity.name)).\"_id\")"
    }

    /// The column of `clonedFrom`, counted from the first record column: the last one.
    static func clonedFromColumn(entity: EntityDescription, ownColumns: Int) -> Int {
        2 + entity.attributes.count + ownColumns + 2 * entity.attributes.filter { $0.type == .binary }.count
    }

    /// Per binary attribute (its index in the entity's attributes), the columns that hold its key
    /// and its size, counted from the first record column.
    static func blobColumns(entity: EntityDescription, ownColumns: Int) -> [(attribute: Int, key: Int, size: Int)] {
        let binary = entity.attributes.indices.filter { entity.attributes[$0].type == .binary }
        let first = 2 + entity.attributes.count + ownColumns
        return binary.enumerated().map { (attribute: $1, key: first + 2 * $0, size: first + 2 * $0 + 1) }
    }
}
