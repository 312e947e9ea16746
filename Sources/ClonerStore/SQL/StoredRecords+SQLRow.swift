import ClonerModel
import Foundation

extension StoredRecords {
    /// Appends the record in `row`, whose record columns (`SQLRecordColumns`) start at `base`:
    /// each to-one stored on the row from its column (`ownToOnes`, in relationship order, columns
    /// counted from `"_id"`), every other relationship empty until it is filled in, and a binary
    /// value the row did not read whole noted by its key and size (`blobColumns`), and the source
    /// it was cloned from (column `clonedFrom`, NULL for no clone). The same for every backend and
    /// every read of records: by position, no dictionary per row.
    mutating func appendRecord<Row: SQLRow>(
        _ row: Row, from base: Int, ownToOnes: [(relationship: Int, column: Int)], blobColumns: [(attribute: Int, key: Int, size: Int)],
        clonedFrom: Int
    ) {
        append(id: row.int64(base), version: row.int64(base + 1))
        for (offset, attribute) in entity.attributes.enumerated() {
            appendAttribute(row.attributeValue(base + 2 + offset, attribute.type))
        }
        var own = 0
        for (index, relationship) in entity.relationships.enumerated() {
            if own < ownToOnes.count, ownToOnes[own].relationship == index {
                appendRelationship(.toOne(row.optionalInt64(base + ownToOnes[own].column)))
                own += 1
            } else {
                appendRelationship(relationship.isToMany ? .toMany([]) : .toOne(nil))
            }
        }
        // A binary value the row did not read whole (larger than `SQLRecordColumns.rowBinaryBytes`,
        // or in shorter chunks).
        for (attribute, key, size) in blobColumns where !row.isNull(base + key) {
            noteBinary(BlobReference(hash: row.data(base + key), size: row.int64(base + size)), attribute: attribute)
        }
        if let source = row.optionalInt64(base + clonedFrom) { noteClonedFrom(source) }
    }
}
