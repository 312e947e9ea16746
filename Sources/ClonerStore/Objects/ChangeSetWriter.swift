import ClonerModel
import Foundation

/// A backend's store context as `save` needs it: the steps it takes in its own dialect, so that
/// what a save does after its rows are inserted — and in which order, with which checks — is
/// written once for both backends, and the same change set gets the same answer on each.
protocol ChangeSetWriter {
    func entity(_ name: String) -> EntityDescription
    func version(entity: String, id: Int64) throws -> Int64?
    /// Objects of one entity as an update compares with them: a binary value larger than a row
    /// reads with it left in the store (`StoredRecords.unreadBinaries`), not read whole to be
    /// compared with what the update writes.
    func currentRecords(entity name: String, ids: [Int64]) throws -> StoredRecords
    /// Whether writing `value` over `current` would store what is there already.
    func storesSame(_ value: AttributeValue, _ current: AttributeValue) -> Bool
    /// Writes attribute values, noting the blobs whose references it replaced in `touched`.
    func updateRow(_ entity: EntityDescription, id: Int64, _ given: [String: AttributeValue], touched: inout TouchedObjects) throws
    /// Deletes the blobs among `candidates` nothing refers to any more: one statement.
    func sweepBlobs(_ candidates: Set<Data>) throws
    /// Which of `ids` name an object of `entity`: one query, however many.
    func existingIDs(entity: String, ids: [Int64]) throws -> Set<Int64>
    /// Writes a to-one link (a checked target, or nil where optional) where the schema stores it,
    /// taking a one-to-one's target from its previous owner; notes whose record changed.
    func setToOne(
        _ entity: EntityDescription, id: Int64, relationship: RelationshipDescription, target: Int64?,
        touched: inout TouchedObjects) throws
    /// Replaces a to-many list (checked, distinct targets), keeping ordered positions and the
    /// inverse side; notes whose record changed. `places`, one per target, are the positions of
    /// a part of an ordered list declared into a hierarchy (`ChangeSet.ListPlaces`); nil numbers
    /// the list from 0.
    func setToMany(
        _ entity: EntityDescription, id: Int64, relationship: RelationshipDescription, targets: [Int64], places: [Int64]?,
        touched: inout TouchedObjects) throws
    func checkRequiredRelationships(_ entity: EntityDescription, ids: [Int64]) throws
    func deleteObject(_ delete: ChangeSet.Delete, touched: inout TouchedObjects) throws -> [String: Int]
    /// Moves the versions of `ids` of `entity` up by one, in one statement.
    func bumpVersions(entity: String, ids: [Int64]) throws
}

extension ChangeSetWriter {
    /// A value fits `attribute`: null only where optional, otherwise of its type. (What a backend
    /// can't hold beyond that — NUL in PostgreSQL text — it refuses as it binds the value.)
    func checkValue(_ value: AttributeValue, for attribute: AttributeDescription, entity: EntityDescription) throws {
        if value.isNull {
            guard attribute.isOptional else {
                throw StoreError.invalidValue(entity: entity.name, property: attribute.name, reason: "is required and cannot be null")
            }
        } else if value.type != attribute.type {
            throw StoreError.invalidValue(
                entity: entity.name, property: attribute.name,
                reason: "expected a \(attribute.type.rawValue), got a \(value.type?.rawValue ?? "null")")
        }
    }

    /// Throws unless the object `delete` names exists (`version`, read by the caller: nil when
    /// it does not) at the version the delete expects, if it expects one.
    func checkDeletable(_ delete: ChangeSet.Delete, version: Int64?) throws {
        guard let version else { throw StoreError.notFound(entity: delete.entity, id: delete.id) }
        if let expected = delete.expectedVersion, expected != version {
            throw StoreError.versionConflict(entity: delete.entity, id: delete.id, expected: expected, actual: version)
        }
    }

    /// What an insert writes for `attribute`: the given value, else its default, else null where
    /// optional; checked.
    func insertValue(_ attribute: AttributeDescription, given: [String: AttributeValue], entity: EntityDescription) throws -> AttributeValue {
        let value: AttributeValue
        if let explicit = given[attribute.name] {
            value = explicit
        } else if let fallback = attribute.defaultValue {
            value = fallback
        } else if attribute.isOptional {
            value = .null
        } else {
            throw StoreError.invalidValue(entity: entity.name, property: attribute.name, reason: "is required")
        }
        try checkValue(value, for: attribute, entity: entity)
        return value
    }

    func checkKnown<A: Sequence, R: Sequence>(_ entity: EntityDescription, attributes: A, relationships: R) throws
    where A.Element == String, R.Element == String {
        for name in attributes where entity.attribute(named: name) == nil {
            throw StoreError.unknownProperty(entity: entity.name, property: name)
        }
        for name in relationships where entity.relationship(named: name) == nil {
            throw StoreError.unknownProperty(entity: entity.name, property: name)
        }
    }

    /// `update` without the attributes and relationship edits that would leave `current` as it
    /// is: attributes as this backend stores them, a to-many list in order when ordered, as a set
    /// otherwise.
    /// `places` are the current places in the declared list of the ordered parts of fields
    /// declared into a hierarchy (`StoredRecords.listPlaces`): a part whose own list stays may
    /// still move among the other parts' objects.
    func withoutNoOps(
        _ update: ChangeSet.Update, current: StoredObject, unread: [String: BlobReference], places: [String: [Int64]] = [:]
    ) -> ChangeSet.Update {
        var update = update
        update.attributes = update.attributes.filter { name, value in
            if let blob = unread[name] {
                // A value left in the store: the same bytes have its size and its key, their hash.
                guard case .binary(let bytes) = value, Int64(bytes.count) == blob.size else { return true }
                return BlobDigest.sha256(bytes) != blob.hash
            }
            return !storesSame(value, current.attributes[name] ?? .null)
        }
        update.relationships = update.relationships.filter { name, edit in
            switch (edit, current.relationships[name]) {
            case (.toOne(nil), .toOne(nil)?):
                return false
            case (.toOne(.existing(let target)?), .toOne(let now?)?):
                return target != now
            case (.toMany(let references), .toMany(let now)?):
                var targets: [Int64] = []
                for case .existing(let target) in references { targets.append(target) }
                guard targets.count == references.count, targets.count == now.count else { return true }
                if let given = update.places[name], given != places[name] ?? [] { return true }
                if targets == now { return false }
                let ordered = entity(current.entity).relationship(named: name)?.isOrdered ?? true
                return ordered || Set(targets) != Set(now)
            default:
                return true
            }
        }
        return update
    }

    /// Sets one relationship of one object. Each inverse pair is stored once, so writing the
    /// storage updates both sides; the backend's `setToOne`/`setToMany` take a one-to-one's target
    /// from its previous owner, keep ordered positions, and note whose record changed.
    func applyEdit(
        _ entity: EntityDescription, id: Int64, relationship: RelationshipDescription,
        edit: ChangeSet.RelationshipEdit, places: [Int64]?, resolve: (ChangeSet.Reference) -> Int64, linkable: LinkableObjects,
        touched: inout TouchedObjects
    ) throws {
        switch edit {
        case .toOne(let reference):
            guard !relationship.isToMany else {
                throw StoreError.invalidValue(entity: entity.name, property: relationship.name, reason: "is to-many: expected a list of _id values")
            }
            let target = reference.map(resolve)
            if let reference { try linkable.check(reference, resolved: target!, entity, relationship) }
            if target == nil && !relationship.isOptional {
                throw StoreError.requiredRelationship(entity: entity.name, relationship: relationship.name)
            }
            try setToOne(entity, id: id, relationship: relationship, target: target, touched: &touched)
        case .toMany(let references):
            guard relationship.isToMany else {
                throw StoreError.invalidValue(entity: entity.name, property: relationship.name, reason: "is to-one: expected one _id or null")
            }
            let targets = references.map(resolve)
            if Set(targets).count != targets.count {
                throw StoreError.invalidValue(entity: entity.name, property: relationship.name, reason: "lists the same _id twice")
            }
            for (reference, target) in zip(references, targets) { try linkable.check(reference, resolved: target, entity, relationship) }
            if let places, places.count != targets.count {
                throw StoreError.invalidValue(entity: entity.name, property: relationship.name, reason: "needs one place per listed _id")
            }
            let ordered = relationship.isOrdered ? places : nil
            try setToMany(entity, id: id, relationship: relationship, targets: targets, places: ordered, touched: &touched)
        }
        touched.insert(entity.name, id)
    }

    /// Everything of `save` after the inserted rows exist (`insertedIDs`, in the order of
    /// `changes.inserts`; `handledAtInsert` the relationships written with each row): updates
    /// with their version checks, relationship edits with their inverses, the required
    /// relationships of new objects, deletes with their rules, and one version bump per object
    /// that changed. Returns the deleted objects' counts per entity.
    func applyAfterInserts(
        _ changes: ChangeSet, insertedIDs: [Int64], handledAtInsert: [Set<String>],
        touched: inout TouchedObjects
    ) throws -> [String: Int] {
        // What each updated object holds now (one read per entity), so an update that sets what
        // is already there writes nothing and leaves the version alone. A large binary value is
        // compared by its key, never read: a PATCH of a name must not cost the size of a value beside it.
        typealias Current = (object: StoredObject, unread: [String: BlobReference], places: [String: [Int64]])
        var current: [String: [Int64: Current]] = [:]
        for (name, updates) in Dictionary(grouping: changes.updates, by: \.entity) {
            let records = try currentRecords(entity: name, ids: updates.map(\.id))
            var byID: [Int64: Current] = [:]
            for index in 0..<records.count where byID[records.ids[index]] == nil {
                var unread: [String: BlobReference] = [:]
                for (attribute, description) in records.entity.attributes.enumerated() {
                    if let blob = records.unreadBinary(record: index, attribute: attribute) { unread[description.name] = blob }
                }
                var places: [String: [Int64]] = [:]
                for (offset, relationship) in records.entity.relationships.enumerated() {
                    if let listed = records.places(record: index, relationship: offset) { places[relationship.name] = listed }
                }
                byID[records.ids[index]] = (records.object(at: index), unread, places)
            }
            current[name] = byID
        }
        var updateCounts: [String: [Int64: Int]] = [:]
        for update in changes.updates { updateCounts[update.entity, default: [:]][update.id, default: 0] += 1 }
        var updates = changes.updates
        for index in updates.indices {
            let entity = entity(updates[index].entity)
            let update = updates[index]
            try checkKnown(entity, attributes: update.attributes.keys, relationships: update.relationships.keys)
            guard let (object, unread, places) = current[entity.name]?[update.id] else {
                throw StoreError.notFound(entity: entity.name, id: update.id)
            }
            if let expected = update.expectedVersion, expected != object.version {
                throw StoreError.versionConflict(entity: entity.name, id: update.id, expected: expected, actual: object.version)
            }
            for (name, value) in update.attributes { try checkValue(value, for: entity.attribute(named: name)!, entity: entity) }
            if updateCounts[entity.name]?[update.id] == 1 {
                updates[index] = withoutNoOps(update, current: object, unread: unread, places: places)
            }
            guard !updates[index].attributes.isEmpty else { continue }
            try updateRow(entity, id: update.id, updates[index].attributes, touched: &touched)
            touched.insert(entity.name, update.id)
        }

        func resolve(_ reference: ChangeSet.Reference) -> Int64 {
            switch reference {
            case .existing(let id): return id
            case .inserted(let index):
                precondition(insertedIDs.indices.contains(index), "reference to insert #\(index) of \(insertedIDs.count)")
                return insertedIDs[index]
            }
        }
        var edits: [(entity: EntityDescription, id: Int64, relationship: RelationshipDescription, edit: ChangeSet.RelationshipEdit, places: [Int64]?)] =
            []
        for (index, insert) in changes.inserts.enumerated() {
            let entity = entity(insert.entity)
            for name in insert.relationships.keys.sorted() where !handledAtInsert[index].contains(name) {
                edits.append((entity, insertedIDs[index], entity.relationship(named: name)!, insert.relationships[name]!, insert.places[name]))
            }
        }
        for update in updates {
            let entity = entity(update.entity)
            for name in update.relationships.keys.sorted() {
                edits.append((entity, update.id, entity.relationship(named: name)!, update.relationships[name]!, update.places[name]))
            }
        }
        let linkable = try LinkableObjects(edits.map { ($0.relationship, $0.edit) }, lookingUp: existingIDs(entity:ids:))
        for edit in edits {
            try applyEdit(
                edit.entity, id: edit.id, relationship: edit.relationship, edit: edit.edit, places: edit.places, resolve: resolve,
                linkable: linkable, touched: &touched)
        }
        var insertedByEntity: [String: [Int64]] = [:]
        for (index, insert) in changes.inserts.enumerated() { insertedByEntity[insert.entity, default: []].append(insertedIDs[index]) }
        for (name, ids) in insertedByEntity.sorted(by: { $0.key < $1.key }) {
            try checkRequiredRelationships(entity(name), ids: ids)
        }

        var deletedCounts: [String: Int] = [:]
        for delete in changes.deletes {
            for (entity, count) in try deleteObject(delete, touched: &touched) {
                deletedCounts[entity, default: 0] += count
            }
        }

        // Fresh inserts stay at version 1; everything else that changed moves up by exactly one.
        for (index, insert) in changes.inserts.enumerated() { touched.remove(insert.entity, insertedIDs[index]) }
        for batch in touched.batches { try bumpVersions(entity: batch.entity, ids: batch.ids) }
        // Last, once every reference this save drops is gone (cascades included).
        try sweepBlobs(touched.droppedBlobs)
        return deletedCounts
    }
}
