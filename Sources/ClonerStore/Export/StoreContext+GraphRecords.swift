import ClonerModel

/// The export's reads on a backend without reads of its own: through the shared fetch, converted
/// into the export's buffers (values as `.other`, written as a fetch's values are).
extension StoreContext {
    public func readGraphRecords(entity name: String, ids: [Int64], into batch: GraphRecordBatch) throws {
        guard let entity = model.entity(named: name) else { preconditionFailure("unknown entity \(name)") }
        batch.reset(entity: entity, ids: ids)
        guard !ids.isEmpty else { return }
        let records = try fetchRecords(entity: name, ids: ids)
        for index in 0..<records.count {
            guard let position = batch.position(of: records.ids[index]) else { continue }
            batch.markFound(position)
            for (attribute, value) in records.attributes(at: index).enumerated() {
                if case .binary(let data) = value { batch.countBinary(data.count) }
                batch.set(value == .null ? .null : .other(value), of: position, attribute: attribute)
            }
            for (relationship, value) in records.relationships(at: index).enumerated() {
                switch value {
                case .toOne(let id): batch.setRelationship(id, of: position, relationship: relationship)
                case .toMany(let list): batch.setRelationship(list, of: position, relationship: relationship)
                }
            }
        }
    }

    public func readDestinations(of relationship: RelationshipDescription, for sources: [Int64], into lists: inout GraphDestinations) throws {
        lists.reset(sources: sources, width: 1)
        guard !sources.isEmpty else { return }
        let found = try destinationIDs(of: relationship, for: sources)
        for (position, source) in sources.enumerated() {
            lists.set(found[source] ?? [], of: position, list: 0)
        }
    }
}
