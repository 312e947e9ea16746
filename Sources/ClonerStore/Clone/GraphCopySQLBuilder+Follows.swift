import ClonerModel

/// One `followParent` attribute a follow step writes after every row exists
/// (`GraphCopySQLBuilder.followSteps`).
struct GraphCopyFollow {
    let entity: EntityDescription
    let attribute: AttributeDescription
    /// `CASE m.pent WHEN <parent tag> THEN <the parent clone's value> … ELSE <otherwise> END`.
    let parentValue: (_ otherwise: String) -> String
    /// The attribute follows itself (a tree carrying its root's id): its value must be pushed
    /// down every level of the clone after the update.
    let followsItself: Bool

    /// A follow step's attribute, for the order of the steps.
    struct Key: Hashable {
        let entity: String
        let attribute: String
    }
}

/// The statements of one follow step: the update from each parent's clone, then (for an
/// attribute following itself) the push down each chain (`GraphCopySQLBuilder.followPropagation`).
struct GraphCopyFollowStep {
    let entity: String
    let attribute: String
    let statements: [String]
}

extension GraphCopySQLBuilder {
    /// The follow steps, in the order `followSteps(_:)` gives them.
    var followSteps: [GraphCopyFollowStep] { followSteps(makeFollowStep) }

    /// The update of a followed attribute, driven by its entity's map rows, each row found by its
    /// `_id`, then the backend's push down the chains where it follows itself.
    private func makeFollowStep(_ follow: GraphCopyFollow) -> GraphCopyFollowStep {
        let entityTag = tag(follow.entity.name)
        let column = quoted(follow.attribute.name)
        let update =
            "UPDATE \(quoted(follow.entity.name)) AS t SET \(column) = \(follow.parentValue("t.\(column)")) FROM \(mapRows(entityTag, "m")) "
            + "WHERE \(allOf(mapOf(entityTag, "m") + ["m.pnew IS NOT NULL", "t.\"_id\" = m.new"]))"
        return GraphCopyFollowStep(
            entity: follow.entity.name, attribute: follow.attribute.name,
            statements: [update] + (follow.followsItself ? followPropagation(follow) : []))
    }

    /// The follow steps, in the order they must run — parents' values first, a depth-first
    /// topological order over the follow dependencies — each built by `make`. Attributes the
    /// INSERT fills (`inlineFollows`) have none.
    func followSteps<Step>(_ make: (GraphCopyFollow) -> Step) -> [Step] {
        typealias Key = GraphCopyFollow.Key
        var steps: [Key: (step: Step, dependsOn: [Key])] = [:]
        for entity in model.entities where reachable.contains(entity.name) {
            for attribute in entity.attributes {
                guard case .followParent(let followed, _) = plan.rule(for: entity.name, attribute.name),
                    !plan.isExcludedEverywhere(entity.name, attribute.name), !inlineFollows.contains("\(entity.name).\(attribute.name)")
                else { continue }
                let parents = followParents(of: entity.name, followed: followed)
                guard !parents.isEmpty else { continue }
                let cases = parents.map { parent in
                    "WHEN \(tag(parent)) THEN (SELECT p.\(quoted(followed)) FROM \(quoted(parent)) p WHERE p.\"_id\" = m.pnew)"
                }.joined(separator: " ")
                let dependsOn = parents.compactMap { parent -> Key? in
                    guard case .followParent = plan.rule(for: parent, followed) else { return nil }
                    return Key(entity: parent, attribute: followed)
                }
                let key = Key(entity: entity.name, attribute: attribute.name)
                let follow = GraphCopyFollow(
                    entity: entity, attribute: attribute, parentValue: { "CASE m.pent \(cases) ELSE \($0) END" },
                    followsItself: dependsOn.contains(key))
                steps[key] = (make(follow), dependsOn)
            }
        }
        var ordered: [Step] = []
        var done: Set<Key> = []
        var visiting: Set<Key> = []
        func visit(_ key: Key) {
            guard !done.contains(key), !visiting.contains(key), let entry = steps[key] else { return }
            visiting.insert(key)
            for dependency in entry.dependsOn where dependency != key { visit(dependency) }
            visiting.remove(key)
            done.insert(key)
            ordered.append(entry.step)
        }
        for key in steps.keys.sorted(by: { ($0.entity, $0.attribute) < ($1.entity, $1.attribute) }) { visit(key) }
        return ordered
    }
}
