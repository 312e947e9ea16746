import ClonerModel

/// What a relationship into an inheritance hierarchy needs of the store beyond ordinary edges
/// (docs/architecture.md#relationships-into-a-hierarchy): which concrete entity holds an `_id`.
extension SQLStoreContext {
    /// One statement over the entities' tables, the id list bound once.
    func concreteEntities(ofIDs ids: [Int64], among entities: [String]) throws -> [Int64: String] {
        guard !ids.isEmpty, !entities.isEmpty else { return [:] }
        let parts = entities.enumerated().map { index, entity in
            "SELECT \"_id\", CAST(\(index) AS \(Dialect.integerType)) FROM \(quoted(entity)) WHERE \"_id\" \(Dialect.among(1))"
        }
        var found: [Int64: String] = [:]
        try connection.forEachRow(parts.joined(separator: " UNION ALL "), arguments: [.ids(ids)]) { row in
            found[row.int64(0)] = entities[Int(row.int64(1))]
        }
        return found
    }
}

extension SQLStoreContext {
    /// A clone's plan with each field its `set` gives that is declared into an inheritance
    /// hierarchy written as the store keeps it: an `_id` goes to the part of the concrete entity
    /// that holds it and the other parts are emptied (a to-one), or each part takes its share of
    /// the list in the list's order, with its places in the whole list when it is ordered (a
    /// to-many) — so the copy's steps see ordinary relationships,
    /// and a part the value leaves empty is set to empty rather than walked. One query per field,
    /// however many copies name it. An `_id` no concrete entity of the destination holds is the
    /// request's error, naming the field and, when only a copy gives it, the copy.
    func resolvingHierarchyFields(of plan: GraphCopyPlan) throws -> GraphCopyPlan {
        guard let root = schema.model.entity(named: plan.rootEntity), !root.hierarchyFieldNames.isEmpty else { return plan }
        let named = Set(plan.rootValues.keys).union(plan.perCopyRootValues.flatMap(\.keys)).union(plan.rootLinks.keys)
        var resolved = plan
        for field in named.sorted() where root.relationship(named: field) == nil {
            let parts = root.relationshipParts(ofField: field)
            guard !parts.isEmpty else { continue }
            let holders = try holdersOfSetIDs(field: field, parts: parts, plan: plan)
            func split(_ value: AttributeValue) -> [String: AttributeValue] {
                var values: [String: AttributeValue] = [:]
                for part in parts {
                    guard case .integer(let id) = value, holders[id] == part.destination else {
                        values[part.name] = .null
                        continue
                    }
                    values[part.name] = value
                }
                return values
            }
            if let value = resolved.rootValues.removeValue(forKey: field) {
                resolved.rootValues.merge(split(value)) { _, part in part }
            }
            for copy in resolved.perCopyRootValues.indices {
                guard let value = resolved.perCopyRootValues[copy].removeValue(forKey: field) else { continue }
                resolved.perCopyRootValues[copy].merge(split(value)) { _, part in part }
            }
            if let list = resolved.rootLinks.removeValue(forKey: field) {
                for part in parts {
                    let places = list.indices.filter { holders[list[$0]] == part.destination }
                    resolved.rootLinks[part.name] = places.map { list[$0] }
                    // An ordered list keeps one order over its parts: each id its place in all of it.
                    if part.isOrdered { resolved.rootLinkPlaces[part.name] = places.map(Int64.init) }
                }
            }
        }
        return resolved
    }

    /// Which concrete entity holds each `_id` the plan gives `field`; throws
    /// `StoreError.missingRootLink` for one none of `parts`' destinations holds, saying — asked
    /// only then — which other entity holds it, if any.
    private func holdersOfSetIDs(field: String, parts: [RelationshipDescription], plan: GraphCopyPlan) throws -> [Int64: String] {
        var shared: [Int64] = plan.rootLinks[field] ?? []
        if case .integer(let id)? = plan.rootValues[field] { shared.append(id) }
        let perCopy = plan.perCopyRootValues.compactMap { values -> Int64? in
            guard case .integer(let id)? = values[field] else { return nil }
            return id
        }
        let destinations = parts.map(\.destination)
        let holders = try concreteEntities(ofIDs: Set(shared + perCopy).sorted(), among: destinations)
        guard let missing = (shared + perCopy).first(where: { holders[$0] == nil }) else { return holders }
        let others = schema.model.entities.map(\.name).filter { !destinations.contains($0) }
        let elsewhere = try concreteEntities(ofIDs: [missing], among: others)[missing].map { ", but a \($0) has that _id" } ?? ""
        let declared = parts[0].declaration?.destination ?? parts[0].destination
        let copy = shared.contains(missing) ? nil : plan.perCopyRootValues.firstIndex { $0[field] == .integer(missing) }
        throw StoreError.missingRootLink(
            relationship: field, copy: copy,
            message: "no \(declared) with _id \(missing): it is no \(destinations.joined(separator: " or "))\(elsewhere)")
    }
}
