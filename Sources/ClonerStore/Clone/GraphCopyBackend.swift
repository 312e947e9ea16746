import ClonerModel
import Foundation

/// A database's side of a graph copy: the steps `GraphCopier` takes in its one order, each
/// answered in the backend's SQL and by its own strategy — how it walks (SQLite by levels or by
/// ways, PostgreSQL by one recursive statement, again into the map past a limit, or from a walk
/// its session remembers), how it guards the source (nothing to do under SQLite's one writer; a
/// check after the last read or a lock on PostgreSQL), whether statements run one by one or are
/// collected and sent in one pipeline (a PostgreSQL step may only add to the pipeline the write
/// step sends), and what a copy leaves in its work tables (SQLite empties them as it ends,
/// PostgreSQL truncates them after a COMMIT once enough rows are left).
///
/// A backend value lives for one run of the copy: the store may run a transaction again, and a
/// run keeps nothing of the one before.
protocol GraphCopyBackend {
    associatedtype Context: SQLStoreContext
    associatedtype Builder: GraphCopySQLBuilder
    /// The transaction the copy runs in: the store's SQL written once runs on it too.
    var context: Context { get }
    /// The copy's statements, built for its plan's shape.
    var sql: Builder { get }

    /// Runs one of the builder's queries with the copy's parameters, each row to `body` (valid
    /// only inside the call): the backend's binding of the root, the time and the `set` values.
    mutating func forEachCopyRow(_ query: String, _ body: (any SQLRow) throws -> Void) throws

    /// The root exists: thrown `StoreError.notFound` if not. `withWalk`: the plan sets nothing on
    /// the root, and the backend may check it together with the walk (`walk` then reports it).
    mutating func checkRoot(_ root: EntityDescription, withWalk: Bool) throws

    /// Stores the root's values per copy (`rootValues`, one per copy), builds the copy's
    /// statements and readies the work tables.
    mutating func prepare(root: EntityDescription, rootValues: [[String: AttributeValue]], now: Date) throws

    /// The walk: objects per entity, all copies together. May throw `StoreError.tooLarge` itself
    /// where it stops early.
    mutating func walk() throws -> [Int: Int]

    /// The map of old to new ids of every walked object (`counts` per entity, all copies).
    mutating func fillMap(counts: [Int: Int]) throws

    /// The linked objects: those the copies point at and those `set` names on the root.
    mutating func link(setReferences: [GraphCopyReference], rootLinks: [GraphCopyReference]) throws

    /// The copies' rows, join rows, followed attributes and the roots' set lists; a unique
    /// violation thrown as `StoreError` (`GraphCopier` names the copy).
    mutating func write(root: EntityDescription, rootLinks: [GraphCopyReference], counts: [Int: Int], progress: GraphCopyProgress) throws

    /// After a unique violation of the writes of many copies: the first copy (0-based) whose rows
    /// repeat a value of `attributes` of `entity`, nil when it cannot be told.
    mutating func firstClashingCopy(entity: String, attributes: [String]) throws -> Int?

    /// After the writes: the roots' clones per copy, the linked objects per entity, and the new
    /// ids when the plan asks for them.
    mutating func finish(counts: [Int: Int]) throws -> (cloneIDs: [Int64], linked: [Int: Int], ids: [[String: [Int64: Int64]]]?)

    /// The copy ended (`copied`: it finished): what the work tables and the session keep of it.
    mutating func end(copied: Bool)
}

/// A relationship of the root a `set` names objects of, with their ids.
typealias GraphCopyReference = (relationship: RelationshipDescription, ids: [Int64])

extension GraphCopyBackend {
    /// The objects of `entity` among `ids`: those a `set` on the root names (a to-one's or a
    /// to-many's), in one query per relationship, as any write looks them up.
    func existing(_ ids: [Int64], of entity: String) throws -> Set<Int64> {
        try context.existingIDs(entity: entity, ids: ids)
    }

    /// For a dry run, after `finish`: the values `rebuild: suffix` would give, per
    /// `Entity.attribute` (the builder's `suffixPreviewQueries`), in the copies' `_id` order.
    mutating func suffixPreview(counts: [Int: Int]) throws -> [String: [String]] {
        var values: [String: [String]] = [:]
        for (attribute, query) in sql.suffixPreviewQueries(counts: counts) {
            try forEachCopyRow(query) { row in
                if case .string(let text) = row.attributeValue(1, .string) { values[attribute, default: []].append(text) }
            }
        }
        return values
    }

    /// For a dry run: the unique constraints the copy would break, each with its objects
    /// (`GraphCopySQLBuilder.repeatedValueQueries`, one row each), those it would not left out.
    mutating func repeatedValues(counts: [Int: Int]) throws -> [GraphCopyClash] {
        var clashes: [GraphCopyClash] = []
        for (clash, query) in sql.repeatedValueQueries(counts: counts) {
            var objects = 0
            try forEachCopyRow(query) { objects = Int($0.int64(0)) }
            if objects > 0 { clashes.append(GraphCopyClash(entity: clash.entity, attributes: clash.attributes, objects: objects)) }
        }
        return clashes
    }
}
