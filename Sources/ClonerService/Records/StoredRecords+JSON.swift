import ClonerModel
import ClonerStore

extension StoredRecords {
    /// Writes record `index` as the flat JSON object (docs/architecture.md#records), the same bytes as
    /// `RecordJSONCoding.writeRecord` (`_id`, `_entity`, `_version`, then attributes and
    /// relationships in model order), with the member names pre-encoded in `keys`.
    func write(_ index: Int, keys: RecordKeys, to writer: inout JSONWriter) {
        precondition(
            keys.attributes.count == entity.attributes.count && keys.relationships.count == entity.relationships.count,
            "record keys of another entity than \(entity.name)")
        writer.beginObject()
        writer.key(encoded: RecordKeys.id); writer.integer(ids[index])
        writer.key(encoded: RecordKeys.entity); writer.string(encoded: keys.entityValue)
        writer.key(encoded: RecordKeys.version); writer.integer(versions[index])
        let attributeBase = index * keys.attributes.count
        for (offset, key) in keys.attributes.enumerated() {
            writer.key(encoded: key)
            RecordJSONCoding.writeValue(attributes[attributeBase + offset], to: &writer)
        }
        let relationshipBase = index * keys.relationships.count
        for field in keys.fields {
            writer.key(encoded: field.key)
            if field.parts.count == 1 {
                RecordJSONCoding.writeRelationship(relationships[relationshipBase + field.parts[0]], to: &writer)
            } else {
                RecordJSONCoding.writeRelationship(merged(field, record: index), to: &writer)
            }
        }
        RecordJSONCoding.writeLongLists(
            entity: entity, id: ids[index],
            relationships: relationships[relationshipBase..<(relationshipBase + keys.relationships.count)],
            listRoutes: keys.listRoutes, to: &writer)
        writeStoredBinaries(index, keys: keys, to: &writer)
        writeClonedFrom(index, keys: keys, to: &writer)
        writer.endObject()
    }

    /// A field declared into an inheritance hierarchy as one value: the to-one part that is set,
    /// or every part's objects (an ordered list by each object's place in the declared list,
    /// which every part keeps, then by `_id`; any other in `_id` order, as the ids of one space).
    private func merged(_ field: RelationshipField, record index: Int) -> RelationshipValue {
        let base = index * entity.relationships.count
        var target: Int64?
        var placed: [(place: Int64, id: Int64)] = []
        var isToMany = false
        for part in field.parts {
            switch relationships[base + part] {
            case .toOne(let id): target = target ?? id
            case .toMany(let ids):
                isToMany = true
                let places = field.isOrdered ? self.places(record: index, relationship: part) : nil
                for (offset, id) in ids.enumerated() { placed.append((places?[offset] ?? 0, id)) }
            }
        }
        guard isToMany else { return .toOne(target) }
        placed.sort { ($0.place, $0.id) < ($1.place, $1.id) }
        return .toMany(placed.map(\.id))
    }

    /// Last, for a clone's root: `"_clonedFrom": {"entity": "Note", "id": 1}`, the object it was
    /// copied from (docs/architecture.md#lineage), still named when that object was deleted since.
    /// Nothing for a record that is no clone. Read-only: a body that sends it is a 422.
    private func writeClonedFrom(_ index: Int, keys: RecordKeys, to writer: inout JSONWriter) {
        guard let source = clonedFrom(record: index) else { return }
        writer.key(encoded: RecordKeys.clonedFrom)
        writer.beginObject()
        writer.key("entity"); writer.string(encoded: keys.entityValue)
        writer.key("id"); writer.integer(source)
        writer.endObject()
    }

    /// After `_lists`, for each binary value the answer did not carry (past `maxInlineBinaryBytes`;
    /// its member is `null`): `"_blobs": {"data": {"size": 104857600, "href": "/notes/42/data"}}`,
    /// where `GET` streams it (ranges, `ETag`). Nothing for a record whose values are all inline.
    /// Like `_lists`, `_blobs` is no field: a PATCH that sends such a record back is a 422 rather
    /// than a `null` written over the value.
    private func writeStoredBinaries(_ index: Int, keys: RecordKeys, to writer: inout JSONWriter) {
        guard !storedBinaries.isEmpty else { return }
        var started = false
        for (offset, attribute) in entity.attributes.enumerated() {
            guard let size = storedBinary(record: index, attribute: offset) else { continue }
            if !started {
                writer.key("_blobs")
                writer.beginObject()
                started = true
            }
            writer.key(encoded: keys.attributes[offset])
            writer.beginObject()
            writer.key("size"); writer.integer(size)
            writer.key("href"); writer.string(keys.collectionPath + String(ids[index]) + "/" + attribute.name)
            writer.endObject()
        }
        if started { writer.endObject() }
    }

    /// `ETag` of record `index`: its row version, as a strong validator (RFC 9110 §8.8.3).
    func entityTag(_ index: Int) -> String { "\"\(versions[index])\"" }
}
