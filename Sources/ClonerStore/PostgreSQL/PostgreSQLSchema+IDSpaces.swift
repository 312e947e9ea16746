import ClonerModel

/// The sequences `_id`s come from. An entity of an inheritance hierarchy takes its ids from the
/// sequence its hierarchy's tables share (docs/architecture.md#relationships-into-a-hierarchy), so
/// an `_id` names one object of the hierarchy; that sequence's name starts with `_`, which no model
/// name may. Any other entity takes them from its table's identity sequence.
extension PostgreSQLSchema {
    /// The quoted name of `hierarchy`'s sequence.
    static func idSequence(hierarchy: String) -> String {
        quoted(identifier("_ids_\(hierarchy)"))
    }

    /// The sequence `entity` takes its ids from, as the database names it (`readIDSequences`).
    func idSequence(of entity: String) -> String {
        precondition(!idSequences.isEmpty, "the _id sequences are read when the store opens")
        return idSequences[schema.entityTag(entity)]
    }

    /// Every entity's sequence by entity number, asked of the server once as the store opens,
    /// after its preparation: every create, save, import and clone then names it as a constant.
    /// Asking `pg_get_serial_sequence` in each statement made the server search its catalog's
    /// dependencies on every call. A table keeps its sequence when it is renamed, so a table's
    /// is asked, never derived from the table's name.
    mutating func readIDSequences(on connection: PostgreSQLConnection, place: String) throws {
        let tables = model.entities.map { PostgreSQLValue.text(quoted($0.name)) }
        var own = [String?](repeating: nil, count: tables.count)
        try connection.query(
            "SELECT n::int8, pg_get_serial_sequence(t, '_id') FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n)",
            [.array(element: .text, tables)]
        ).forEachRow { own[Int($0.int64(0)) - 1] = $0.optionalString(1) }
        idSequences = try zip(model.entities, own).map { entity, sequence in
            if let hierarchy = entity.hierarchy { return Self.idSequence(hierarchy: hierarchy) }
            guard let sequence else {
                throw StoreError.incompatibleStore(path: place, reason: "the table \(entity.name) has no _id sequence")
            }
            return sequence
        }
    }
}
