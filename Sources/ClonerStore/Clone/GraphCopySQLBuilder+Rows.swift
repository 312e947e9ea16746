import ClonerModel

extension GraphCopySQLBuilder {
    /// The INSERT … SELECT of `entity`'s copies: one, or two when ordered references split the
    /// rows. One LEFT JOIN on the map per reference column finds its clone, if the destination
    /// is in the copy, once per row however many expressions use it.
    func rowInserts(_ entity: EntityDescription) -> [String] {
        let (columns, selects) = rowSelects(entity)
        return selects.map { "INSERT INTO \(quoted(entity.name)) (\(columns.joined(separator: ", "))) \($0)" }
    }

    /// The columns `rowInserts` writes and the SELECT of each of its statements.
    func rowSelects(_ entity: EntityDescription) -> (columns: [String], selects: [String]) {
        var columns = ["\"_id\"", "\"_version\""]
        var values = ["m.new", "1"]
        for attribute in entity.attributes {
            columns.append(quoted(attribute.name))
            values.append(attributeExpression(entity, attribute))
        }
        var joins: [String] = []
        // Rows whose every ordered reference keeps its place (a cloned owner, or none) need no
        // window function; only rows joining an original owner's list are numbered (rule 7), in a
        // second INSERT, so the common case is not sorted for a row_number it never uses.
        var keepsPlaces: [String] = []
        var simpleValues = values
        var appendingValues = values
        for (index, foreignKey) in (schema.foreignKeys[entity.name] ?? []).enumerated() {
            let relationship = entity.relationship(named: foreignKey.relationship!)!
            let alias = "f\(index)"
            joins.append(
                "LEFT JOIN \(mapRows(tag(relationship.destination), alias)) ON \(mapKey(tag(relationship.destination), alias, old: "o.\(quoted(foreignKey.column))", copy: "m.cp"))"
            )
            let mapped = "\(alias).new"
            let reference = referenceExpression(entity, relationship, column: foreignKey.column, mapped: mapped)
            columns.append(quoted(foreignKey.column))
            simpleValues.append(reference)
            appendingValues.append(reference)
            if let position = foreignKey.positionColumn {
                columns.append(quoted(position))
                simpleValues.append("CASE WHEN (\(reference)) IS NULL THEN NULL ELSE o.\(quoted(position)) END")
                appendingValues.append(
                    positionExpression(
                        entity, relationship, column: foreignKey.column, position: position,
                        reference: reference, mapped: mapped))
                let rootSet = setAtRoot(entity.name, relationship.name, alias: "m").map { " AND NOT \($0)" } ?? ""
                keepsPlaces.append("((\(reference)) IS NULL OR (\(mapped) IS NOT NULL\(rootSet)))")
            }
        }
        let source = "FROM \(mapRows(tag(entity.name), "m")) JOIN \(rowSource(entity)) o ON o.\"_id\" = m.old " + joins.joined(separator: " ")
        let entityRows = mapOf(tag(entity.name), "m")
        guard !keepsPlaces.isEmpty else {
            return (columns, [selectingRows(entity, values: simpleValues, source: source, condition: allOf(entityRows))])
        }
        let condition = keepsPlaces.joined(separator: " AND ")
        return (
            columns,
            [
                selectingRows(entity, values: simpleValues, source: source, condition: allOf(entityRows + [condition])),
                selectingRows(entity, values: appendingValues, source: source, condition: allOf(entityRows + ["NOT (\(condition))"])),
            ]
        )
    }

    /// The attribute rules (docs/architecture.md#attribute-rules), in precedence: exclude,
    /// followParent (+ withoutParent), rebuild, copy; the request's `set` on the root over all of
    /// them. `readsParents`: false for a query run when no parent's clone is there to read (the
    /// value the copy has before its follow step).
    func attributeExpression(_ entity: EntityDescription, _ attribute: AttributeDescription, readsParents: Bool = true) -> String {
        let original = "o.\(quoted(attribute.name))"
        let rule = plan.rule(for: entity.name, attribute.name)
        var expression: String
        if plan.isExcludedEverywhere(entity.name, attribute.name) {
            expression = blank(attribute)
        } else if case .followParent(let followed, let otherwise) = rule {
            // With a parent, the follow step fills the value once the parent's clone exists; until
            // then the row holds a placeholder that satisfies the column.
            let withoutParent = ruleExpression(otherwise, attribute, original: original)
            let placeholder = attribute.isOptional ? "NULL" : (attribute.defaultValue.map(Self.literal) ?? original)
            // A parent whose entity lacks the followed attribute counts as no parent (docs/architecture.md#clone-semantics).
            let noParent = noFollowedParent(followed)
            var cases = ["WHEN \(noParent) THEN \(withoutParent)"]
            if readsParents, inlineFollows.contains("\(entity.name).\(attribute.name)") {
                // The parents' rows are written already, their value final: read it now rather
                // than write the row twice (an UPDATE after the inserts).
                cases += followParents(of: entity.name, followed: followed).map { parent in
                    "WHEN m.pent = \(tag(parent)) THEN (SELECT p.\(quoted(followed)) FROM \(quoted(parent)) p WHERE p.\"_id\" = m.pnew)"
                }
            }
            expression = "CASE \(cases.joined(separator: " ")) ELSE \(placeholder) END"
        } else {
            expression = ruleExpression(rule, attribute, original: original)
        }
        if excludedAtRoot(entity.name, attribute.name) {
            expression = "CASE WHEN m.pold IS NULL THEN \(blank(attribute)) ELSE \(expression) END"
        }
        return typed(settingAttribute(attribute, of: entity.name, over: expression), attribute.type)
    }

    /// A reference into the copy's clone set points at the clone (rule 4); outside it, a shared
    /// relationship keeps linking the original, an owned one has nothing to point at.
    func referenceExpression(_ entity: EntityDescription, _ relationship: RelationshipDescription, column: String, mapped: String) -> String {
        let original = "o.\(quoted(column))"
        // An excluded side still links to a clone whose own (inverse) side is not excluded: in
        // Core Data that clone would set the inverse, which sets this side too.
        var excludedValue = Dialect.nullReference
        if let inverse = model.inverse(of: relationship), !plan.isExcludedEverywhere(inverse.source, inverse.name) {
            excludedValue = mapped
        }
        var expression = plan.isOwned(relationship) ? mapped : "coalesce(\(mapped), \(original))"
        if plan.isExcludedEverywhere(entity.name, relationship.name) { expression = excludedValue }
        if excludedAtRoot(entity.name, relationship.name) {
            expression = "CASE WHEN m.pold IS NULL THEN \(excludedValue) ELSE \(expression) END"
        }
        if let isSet = setAtRoot(entity.name, relationship.name, alias: "m") {
            expression = "CASE WHEN \(isSet) THEN \(rootSetReference(relationship.name, alias: "m")) ELSE \(expression) END"
        }
        return expression
    }

    /// Position in the destination's ordered list: a clone under a cloned owner keeps its place;
    /// a clone joining an original owner goes to the end (rule 7), copy after copy, each in
    /// original order (after every part's objects where the list is declared into a hierarchy);
    /// every copy's root joins the end of the list its `set` names, in copy order.
    func positionExpression(
        _ entity: EntityDescription, _ relationship: RelationshipDescription, column: String,
        position: String, reference: String, mapped: String
    ) -> String {
        let original = "o.\(quoted(column))"
        let positionColumn = quoted(position)
        var cases = ["WHEN (\(reference)) IS NULL THEN NULL"]
        if let isSet = setAtRoot(entity.name, relationship.name, alias: "m") {
            let owner = rootSetReference(relationship.name, alias: "m")
            let end = schema.orderedListEnd(joinedBy: relationship, table: entity.name, column: column, position: position, owner: owner)
            cases.append(
                "WHEN \(isSet) THEN \(end) + row_number() OVER (PARTITION BY CASE WHEN \(isSet) THEN \(owner) END ORDER BY m.cp)")
        }
        cases.append("WHEN \(mapped) IS NOT NULL THEN o.\(positionColumn)")
        // After every part's objects where the list is declared into a hierarchy.
        let end = schema.orderedListEnd(joinedBy: relationship, table: entity.name, column: column, position: position, owner: original)
        cases.append(
            "ELSE \(end) + row_number() OVER (PARTITION BY \(original) ORDER BY m.cp, o.\(positionColumn), o.\"_id\")"
        )
        return "CASE " + cases.joined(separator: " ") + " END"
    }

    /// The entities whose clones a `followParent` attribute of `entity` takes its value from:
    /// the owners through a followed relationship that have the followed attribute.
    /// For each entity whose map rows are read for their parent's clone (`pnew`), the entities
    /// of the parents read: those of `followParents` for every `followParent` attribute the copy
    /// writes. Nothing else reads `pnew`, so the map of another entity need not look it up.
    var parentCloneReads: [Int: Set<Int>] {
        var reads: [Int: Set<Int>] = [:]
        for entity in model.entities where reachable.contains(entity.name) {
            for attribute in entity.attributes {
                guard case .followParent(let followed, _) = plan.rule(for: entity.name, attribute.name),
                    !plan.isExcludedEverywhere(entity.name, attribute.name)
                else { continue }
                let parents = followParents(of: entity.name, followed: followed)
                if !parents.isEmpty { reads[tag(entity.name), default: []].formUnion(parents.map(tag)) }
            }
        }
        return reads
    }

    func followParents(of entity: String, followed: String) -> [String] {
        model.entities.filter { candidate in
            reachable.contains(candidate.name) && candidate.attribute(named: followed) != nil
                && candidate.relationships.contains { $0.destination == entity && isFollowed($0) }
        }.map(\.name)
    }

    /// The `followParent` attributes the INSERT can fill itself (no UPDATE pass over the rows):
    /// every possible parent's entity is inserted before this one (`entities` is the insert
    /// order), and its followed attribute is final when written — excluded, itself filled by its
    /// INSERT, or with no parent to follow — and, where the backend asks, of the same type.
    func inlinableFollows(entities: [EntityDescription]) -> Set<String> {
        var order: [String: Int] = [:]
        for (index, entity) in entities.enumerated() { order[entity.name] = index }
        var inline: Set<String> = []
        for entity in entities {
            for attribute in entity.attributes {
                guard case .followParent(let followed, _) = plan.rule(for: entity.name, attribute.name),
                    !plan.isExcludedEverywhere(entity.name, attribute.name)
                else { continue }
                let parents = followParents(of: entity.name, followed: followed)
                guard !parents.isEmpty else { continue }
                let ready = parents.allSatisfy { parent in
                    guard let parentOrder = order[parent], parentOrder < order[entity.name]! else { return false }
                    if Dialect.caseBranchesShareOneType, model.entity(named: parent)!.attribute(named: followed)!.type != attribute.type { return false }
                    guard case .followParent(let grandparentAttribute, _) = plan.rule(for: parent, followed) else { return true }
                    return plan.isExcludedEverywhere(parent, followed) || inline.contains("\(parent).\(followed)")
                        || followParents(of: parent, followed: grandparentAttribute).isEmpty
                }
                if ready { inline.insert("\(entity.name).\(attribute.name)") }
            }
        }
        return inline
    }
}
