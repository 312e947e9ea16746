import ClonerModel

/// What an import needs to give a clashing value of a `rebuild: suffix` attribute its copy
/// suffix (docs/architecture.md#unique-values-on-copy): the turn among writers, and the values
/// already there that could clash with a batch.
extension SQLStoreContext {
    /// Takes the lock of `attribute` (`Entity.attribute`) until the transaction ends, where the
    /// backend needs one.
    func lockCopySuffix(_ attribute: String) throws {
        guard let statement = Dialect.transactionLock(named: CopySuffixLock.name(attribute)) else { return }
        try forEachRow(statement, values: []) { _ in }
    }

    /// The values of `attribute` of `entity` in one of `ranges` (from, up to but not including):
    /// one query, each range a scan of the attribute's unique index (text is byte-ordered on both
    /// stores).
    func values(of attribute: AttributeDescription, entity: String, in ranges: [(from: String, upTo: String)]) throws -> Set<String> {
        guard !ranges.isEmpty else { return [] }
        let column = "e.\(quoted(attribute.name))"
        let sql =
            "SELECT DISTINCT \(column) FROM \(Dialect.parameterRows("v", columns: ["f", "u"], types: [.string, .string], rowCount: ranges.count)) "
            + "JOIN \(quoted(entity)) AS e ON \(column) >= v.f AND \(column) < v.u"
        let rows = try ranges.map { range in
            try [range.from, range.upTo].map { try Self.boundValue(.string($0), entity: entity, attribute: attribute.name) }
        }
        var found: Set<String> = []
        try forEachRow(sql, values: Self.insertArguments(rows[...], types: [.string, .string])) { row in
            if case .string(let value) = row.attributeValue(0, .string) { found.insert(value) }
        }
        return found
    }
}
