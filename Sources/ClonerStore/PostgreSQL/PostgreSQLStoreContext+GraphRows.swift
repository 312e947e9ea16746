import ClonerModel
import Foundation

/// `GraphRowWriter` on PostgreSQL: ids from each table's identity sequence (never handed out twice,
/// even to concurrent writers), and each batch of rows one multi-row INSERT (`unnest` of one array
/// per column).
extension PostgreSQLStoreContext: GraphRowBackend {
    func newIDs(entity: String, after last: Int64?, count: Int) throws -> [Int64] {
        var ids: [Int64] = []
        ids.reserveCapacity(count)
        try run(
            "SELECT nextval(pg_get_serial_sequence($1, '_id')) FROM generate_series(1, $2)",
            [.text(quoted(entity)), .int8(Int64(count))]
        ).forEachRow { ids.append($0.int64(0)) }
        return ids.sorted()
    }

    func insertRows(
        table: String, columns: [(name: String, type: AttributeType?)], rows: [[AttributeValue]], entity: String,
        ignoringDuplicates: Bool
    ) throws {
        let elements = columns.map { $0.type.map(Self.arrayElement) ?? .int8 }
        let sql =
            "INSERT INTO \(quoted(table)) (" + columns.map { quoted($0.name) }.joined(separator: ", ") + ") SELECT * FROM unnest("
            + elements.indices.map { "$\($0 + 1)" }.joined(separator: ", ") + ")" + (ignoringDuplicates ? " ON CONFLICT DO NOTHING" : "")
        var arrays = [[PostgreSQLValue]](repeating: [], count: columns.count)
        for index in arrays.indices { arrays[index].reserveCapacity(rows.count) }
        // The batch's blobs stored together first (see `storeBlobs`), their keys taken in order below.
        var binaries: [Data] = []
        for row in rows {
            for (index, value) in row.enumerated() where columns[index].type != nil {
                if case .binary(let bytes) = value { binaries.append(bytes) }
            }
        }
        var blobKeys = try storeBlobs(binaries).makeIterator()
        for row in rows {
            for (index, value) in row.enumerated() {
                if columns[index].type != nil, case .binary = value {
                    arrays[index].append(.bytea(blobKeys.next()!))
                } else if columns[index].type != nil {
                    arrays[index].append(try storedValue(value, entity: entity, attribute: columns[index].name))
                } else if case .integer(let integer) = value {
                    arrays[index].append(.int8(integer))
                } else {
                    arrays[index].append(.null)
                }
            }
        }
        try run(sql, zip(elements, arrays).map { PostgreSQLValue.array(element: $0, $1) })
    }

    func setColumns(table: String, id: Int64, _ values: [(column: String, value: Int64?)]) throws {
        let sql =
            "UPDATE \(quoted(table)) SET " + values.enumerated().map { "\(quoted($1.column)) = $\($0 + 1)" }.joined(separator: ", ")
            + " WHERE \"_id\" = $\(values.count + 1)"
        try run(sql, values.map { $0.value.map(PostgreSQLValue.int8) ?? .null } + [.int8(id)])
    }

    func execute(_ sql: String, ids: [Int64]) throws {
        try run(sql.replacingOccurrences(of: " IN IDS", with: " = ANY($1)"), [Self.idArray(ids)])
    }

    /// The objects found are locked as a save locks the objects it links (`FOR NO KEY UPDATE`, in
    /// `_id` order): the import links them, and may move their lists' ends and their versions,
    /// so no other writer may change or delete them before it commits.
    func findIDs(entity: EntityDescription, key: [AttributeDescription], values: [[AttributeValue]]) throws -> [(Int, Int64)] {
        guard !values.isEmpty else { return [] }
        let columns = ["n"] + key.indices.map { "k\($0)" }
        let match = key.enumerated().map { "e.\(quoted($1.name)) = v.k\($0)" }.joined(separator: " AND ")
        let sql =
            "SELECT v.n, e.\"_id\" FROM unnest(" + columns.indices.map { "$\($0 + 1)" }.joined(separator: ", ") + ") AS v("
            + columns.joined(separator: ", ") + ") JOIN \(quoted(entity.name)) AS e ON \(match) ORDER BY e.\"_id\" FOR NO KEY UPDATE OF e"
        var arrays: [PostgreSQLValue] = [.array(element: .int8, values.indices.map { PostgreSQLValue.int8(Int64($0)) })]
        for (position, attribute) in key.enumerated() {
            arrays.append(
                .array(
                    element: Self.arrayElement(attribute.type),
                    try values.map { try storedValue($0[position], entity: entity.name, attribute: attribute.name) }))
        }
        var found: [(Int, Int64)] = []
        try run(sql, arrays).forEachRow { row in found.append((Int(row.int64(0)), row.int64(1))) }
        return found
    }
}
