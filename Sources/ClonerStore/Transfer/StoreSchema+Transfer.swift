import ClonerModel

/// The tables a whole-store move carries, in the order it carries them: each entity's table in
/// model order, then the join tables, then the lineage (where clones came from, which is the
/// data's). The other service tables (jobs, idempotency answers, leases) and the metadata table
/// are not among them: they describe one deployment's requests in flight, not the data, and the
/// target makes its own.
extension StoreSchema {
    public var transferTables: [TransferTable] {
        var tables: [TransferTable] = []
        for entity in model.entities {
            var columns = [TransferColumn(name: "_id", type: .integer), TransferColumn(name: "_version", type: .integer)]
            for foreignKey in foreignKeys[entity.name] ?? [] {
                columns.append(TransferColumn(name: foreignKey.column, type: .integer))
                if let position = foreignKey.positionColumn { columns.append(TransferColumn(name: position, type: .integer)) }
            }
            columns += entity.attributes.map { TransferColumn(name: $0.name, type: $0.type) }
            tables.append(TransferTable(kind: .entity, name: entity.name, columns: columns))
        }
        for join in joinTables {
            var columns = [TransferColumn(name: "src", type: .integer), TransferColumn(name: "dst", type: .integer)]
            if let position = join.sourcePositionColumn { columns.append(TransferColumn(name: position, type: .integer)) }
            if let position = join.destinationPositionColumn { columns.append(TransferColumn(name: position, type: .integer)) }
            tables.append(TransferTable(kind: .join, name: join.name, columns: columns))
        }
        tables.append(.lineage)
        return tables
    }
}
