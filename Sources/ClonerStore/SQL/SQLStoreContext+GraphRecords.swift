import ClonerModel

/// The export's reads on a backend without reads of its own: through the shared record read,
/// converted into the export's buffers (values as `.other`, written as a fetch's values are; a
/// binary value over `GraphRecordBatch.streamedBinaryBytes` as `.blob`, streamed by the export).
extension SQLStoreContext {
    func readGraphRecords(entity name: String, ids: [Int64], into batch: GraphRecordBatch) throws {
        let entity = entity(name)
        batch.reset(entity: entity, ids: ids)
        guard !ids.isEmpty else { return }
        var records = try readRecords(entity: name, ids: ids)
        try readBinaryValues(in: &records, inlineBytes: .max, largestRead: GraphRecordBatch.streamedBinaryBytes)
        for index in 0..<records.count {
            guard let position = batch.position(of: records.ids[index]) else { continue }
            batch.markFound(position)
            for (attribute, value) in records.attributes(at: index).enumerated() {
                if let blob = records.unreadBinary(record: index, attribute: attribute) {
                    batch.set(.blob(blob), of: position, attribute: attribute)
                    continue
                }
                if case .binary(let data) = value { batch.countBinary(data.count) }
                batch.set(value == .null ? .null : .other(value), of: position, attribute: attribute)
            }
            for (relationship, value) in records.relationships(at: index).enumerated() {
                switch value {
                case .toOne(let id): batch.setRelationship(id, of: position, relationship: relationship)
                case .toMany(let list): batch.setRelationship(list, of: position, relationship: relationship)
                }
                if let places = records.places(record: index, relationship: relationship) {
                    batch.setPlaces(places, of: position, relationship: relationship)
                }
            }
        }
    }
}
