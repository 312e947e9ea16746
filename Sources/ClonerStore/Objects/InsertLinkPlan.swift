import ClonerModel

/// Links between objects inserted by the same change set that can be written with the rows
/// themselves: a nested create's children get their parent's `_id` (and their place in an ordered
/// list) in the INSERT that makes them, instead of one relationship edit per parent that updates
/// its children afterwards. Both ends are new, so there is no previous owner to take them from,
/// nothing to unlink and no one else's version to bump — the general edit would only repeat, per
/// object, what this plan knows up front.
///
/// Only the shape a nested body produces is planned: a relationship stored as a column on its
/// destination (a to-many with a to-one inverse, or the non-holding side of a one-to-one) whose
/// targets are all inserts coming after their source, each named by no other edit and not linking
/// back by an edit of its own. Everything else goes through the general edit path.
struct InsertLinkPlan {
    /// A column an insert writes itself: its parent's insert index and, for an ordered list, its
    /// position there.
    struct Link {
        let column: String
        let positionColumn: String?
        let parent: Int
        let position: Int64
    }

    /// Per insert, the links it writes with its row.
    private(set) var links: [[Link]]
    /// Per insert, the relationship edits this plan has taken over (skipped by the general path).
    private(set) var handled: [Set<String>]
    /// Per entity, every link column (with its position column) any insert of it writes, in a
    /// stable order: the INSERT statement of that entity lists them all (NULL where not linked), so
    /// one prepared statement serves every row.
    private(set) var columns: [String: [(column: String, positionColumn: String?)]]

    init(_ changes: ChangeSet, model: DataModel, schema: StoreSchema) {
        let inserts = changes.inserts
        links = Array(repeating: [], count: inserts.count)
        handled = Array(repeating: [], count: inserts.count)
        columns = [:]
        // An insert named by more than one edit is left to the general path, which applies the
        // edits in order (the last one wins); a planned link is written before any edit runs.
        var mentions = Array(repeating: 0, count: inserts.count)
        let edits = inserts.lazy.flatMap(\.relationships.values) + changes.updates.lazy.flatMap(\.relationships.values)
        for edit in edits {
            switch edit {
            case .toOne(.inserted(let index)?): if mentions.indices.contains(index) { mentions[index] += 1 }
            case .toOne: break
            case .toMany(let references):
                for case .inserted(let index) in references where mentions.indices.contains(index) { mentions[index] += 1 }
            }
        }
        for (source, insert) in inserts.enumerated() {
            guard let entity = model.entity(named: insert.entity) else { continue }
            for name in insert.relationships.keys.sorted() {
                guard let relationship = entity.relationship(named: name), let inverse = relationship.inverseName,
                    !(relationship.destination == entity.name && inverse == relationship.name),
                    case .foreignKeyOnDestination(let column, let positionColumn) = schema.storage(of: relationship)
                else { continue }
                let targets: [Int]
                switch insert.relationships[name]! {
                case .toMany(let references) where relationship.isToMany:
                    var indices: [Int] = []
                    indices.reserveCapacity(references.count)
                    for case .inserted(let index) in references { indices.append(index) }
                    guard indices.count == references.count else { continue }
                    targets = indices
                case .toOne(.inserted(let index)?) where !relationship.isToMany:
                    targets = [index]
                default:
                    continue
                }
                guard
                    targets.allSatisfy({ target in
                        target > source && target < inserts.count && mentions[target] == 1
                            && inserts[target].entity == relationship.destination && inserts[target].relationships[inverse] == nil
                    })
                else { continue }
                // A part of a list declared into a hierarchy places its rows in the whole list.
                let places = insert.places[name].flatMap { $0.count == targets.count ? $0 : nil }
                for (position, target) in targets.enumerated() {
                    let place = places?[position] ?? Int64(position)
                    links[target].append(Link(column: column, positionColumn: positionColumn, parent: source, position: place))
                }
                handled[source].insert(name)
                if !(columns[relationship.destination] ?? []).contains(where: { $0.column == column }) {
                    columns[relationship.destination, default: []].append((column: column, positionColumn: positionColumn))
                }
            }
        }
    }

    /// Insert `index`'s values for its entity's link `columns` (and their position columns), in
    /// their order: its parent's new id (`parentID`) and place where it has a link there, NULL
    /// (nil) where it has not, so one INSERT statement serves every row of the entity.
    func linkValues(
        of index: Int, columns: [(column: String, positionColumn: String?)], parentID: (Int) -> Int64
    ) -> [Int64?] {
        var values: [Int64?] = []
        for slot in columns {
            let link = links[index].first { $0.column == slot.column }
            values.append(link.map { parentID($0.parent) })
            if slot.positionColumn != nil { values.append(link?.position) }
        }
        return values
    }
}
