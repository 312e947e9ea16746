import ClonerModel
import Foundation

/// Writes the new objects of an imported graph straight into their tables, a batch of rows per
/// statement (`SQLStoreContext.insertRows`), without building a change set of the whole document: the graph document is read a
/// line at a time, and what the writer holds is bounded by a batch, not by the document.
///
/// Ids are handed out by `newID` when an object is first named (a list may name its children
/// before their lines come), so every reference is known when its row is written; reference
/// columns are checked at COMMIT, so a row may name one written later. A link is given in model
/// terms (`link`) and goes where the schema stores the pair: a column of the source row, a column
/// of each destination row (with its place in an ordered list), or a join table. What can only be
/// known at the end is done there, set-based: places at the end of lists of objects the import
/// links to, one version step per linked existing object, the required relationships of the new
/// objects.
///
/// A link may only name a row this writer has not flushed yet, or a row already flushed (then it
/// is one UPDATE for that row: a rare shape, not what a document's owners-first order produces).
public final class GraphRowWriter {
    private let backend: any SQLStoreContext
    private let schema: StoreSchema
    private let progress: GraphCopyProgress?

    /// Rows per INSERT batch, and the binary bytes a batch may hold before it is written.
    static let batchRows = 1_000
    static let batchBytes = 8 << 20

    private struct Row {
        var id: Int64
        var attributes: [AttributeValue]
        /// Per link column of the entity (with its position column after it), in `linkColumns` order.
        var links: [Int64?]
    }

    /// A class, so that the rows and maps it holds are changed in place (a struct copied out of
    /// `entities` and back would copy them on every row).
    private final class EntityState {
        let entity: EntityDescription
        /// Reference and position columns of the entity's table, in schema order.
        let linkColumns: [String]
        var rows: [Row] = []
        /// Ids of `rows`, for links that arrive while the row waits.
        var waiting: [Int64: Int] = [:]
        /// Link values given before the row came: the references and places of the lists a
        /// parent's line gives (`earlyRuns`), and any other value (`early`).
        var early: [Int64: [(column: Int, value: Int64?)]] = [:]
        var earlyRuns = EarlyLinkRuns()
        var reserved: [Int64] = []
        var lastReserved: Int64?
        /// The size of the last block of ids reserved; the next is twice as large, up to 1,024.
        var lastBlock = 0
        /// Every row written, for the checks at the end.
        var written: [Int64] = []
        var writtenSet: Set<Int64> = []

        init(entity: EntityDescription, linkColumns: [String]) {
            self.entity = entity
            self.linkColumns = linkColumns
        }
    }

    private var entities: [String: EntityState] = [:]
    /// Per entity, the entity whose state reserves the ids of its `_id` space (the first of its
    /// inheritance hierarchy, or itself), looked up once.
    private var idSpaces: [String: String] = [:]
    /// `rebuild: suffix` attributes whose clashing values are numbered, per entity (`numberClashes`).
    private var copySuffixes: [String: [(index: Int, attribute: AttributeDescription, clashes: CopySuffixClashes)]] = [:]
    /// The attributes whose lock this import holds (`SQLStoreContext.lockCopySuffix`).
    private var copySuffixLocks: Set<String> = []
    /// The attributes numbered so far, each `Entity.attribute`, as the locks name them.
    private var suffixedAttributes: [String] = []
    private var bufferedBytes = 0
    /// Join rows per table: the table's columns in order, values per row.
    private var joinColumns: [String: [String]] = [:]
    private var joinRows: [String: [[AttributeValue]]] = [:]
    /// Position columns whose new rows take their place at the end of the list, per table:
    /// (list owner column, position column, the column naming the new side) → new ids.
    private var appends: [AppendKey: Set<Int64>] = [:]
    /// Existing objects whose record a link changed (they hold its inverse): one version step each.
    private var touched: [String: Set<Int64>] = [:]

    /// Where one relationship's links go, worked out once per relationship (not per link).
    private enum LinkPlan {
        /// A reference column of the source row, at `column` of its entity's link columns; with
        /// the place its row takes at the end of the target's ordered list, when it has one.
        case sourceColumn(column: Int, append: AppendKey?)
        /// A reference column of each destination row, with its place in the list when ordered.
        case destinationColumn(table: String, column: String, columnIndex: Int, position: String?, positionIndex: Int?)
        /// Rows of a join table (`key` names the table with its column list in `joinRows`).
        case joinRows(key: String, hasPosition: Bool, hasOtherPosition: Bool, append: AppendKey?, mirror: String?)
    }

    private var linkPlans: [String: [String: (plan: LinkPlan, hasInverse: Bool)]] = [:]

    private func linkPlan(_ relationship: RelationshipDescription) -> (plan: LinkPlan, hasInverse: Bool) {
        if let known = linkPlans[relationship.source]?[relationship.name] { return known }
        let plan: LinkPlan
        switch schema.storage(of: relationship) {
        case .foreignKeyOnSource(let column):
            let source = state(relationship.source)
            var append: AppendKey?
            if let position = schema.foreignKeys[relationship.source]?.first(where: { $0.column == column })?.positionColumn {
                // The list's end is over every part where the list is declared into a hierarchy.
                let end = schema.orderedListEnd(
                    joinedBy: relationship, table: relationship.source, column: column, position: position, owner: "y.\(quoted(column))")
                append = AppendKey(table: relationship.source, owner: column, position: position, newSide: "_id", isJoinTable: false, end: end)
            }
            plan = .sourceColumn(column: source.linkColumns.firstIndex(of: column)!, append: append)
        case .foreignKeyOnDestination(let column, let position):
            let destination = state(relationship.destination)
            plan = .destinationColumn(
                table: relationship.destination, column: column, columnIndex: destination.linkColumns.firstIndex(of: column)!,
                position: position, positionIndex: position.map { destination.linkColumns.firstIndex(of: $0)! })
        case .joinTable(let table, let sourceColumn, let destinationColumn, let positionColumn):
            guard let description = schema.joinTables.first(where: { $0.name == table }) else { preconditionFailure("no join table \(table)") }
            let otherPosition = sourceColumn == "src" ? description.destinationPositionColumn : description.sourcePositionColumn
            var columns = [sourceColumn, destinationColumn]
            if let positionColumn { columns.append(positionColumn) }
            if let otherPosition { columns.append(otherPosition) }
            let key = table + "|" + columns.joined(separator: ",")
            joinColumns[key] = columns
            var mirror: String?
            if relationship.isSelfInverse {
                // Stored both ways, so either side reads the pair.
                mirror = table + "|" + [destinationColumn, sourceColumn].joined(separator: ",")
                joinColumns[mirror!] = [destinationColumn, sourceColumn]
            }
            plan = .joinRows(
                key: key, hasPosition: positionColumn != nil, hasOtherPosition: otherPosition != nil,
                append: otherPosition.map {
                    // After every part's rows where the other side's list is declared into a hierarchy.
                    let end = schema.model.inverse(of: relationship).flatMap {
                        schema.hierarchyListEnd(of: $0, owner: "y.\(quoted(destinationColumn))")
                    }
                    return AppendKey(table: table, owner: destinationColumn, position: $0, newSide: sourceColumn, isJoinTable: true, end: end)
                }, mirror: mirror)
        }
        let known = (plan, schema.model.inverse(of: relationship) != nil)
        linkPlans[relationship.source, default: [:]][relationship.name] = known
        return known
    }

    private struct AppendKey: Hashable {
        var table: String
        var owner: String
        var position: String
        var newSide: String
        var isJoinTable: Bool
        /// The last place of the list the row `y` joins (`StoreSchema.orderedListEnd`); nil for
        /// the owner's rows of `table` alone.
        var end: String?
    }

    init(backend: any SQLStoreContext, progress: GraphCopyProgress?) {
        self.backend = backend
        self.schema = backend.schema
        self.progress = progress
    }

    private func state(_ name: String) -> EntityState {
        if let state = entities[name] { return state }
        guard let entity = schema.model.entity(named: name) else { preconditionFailure("unknown entity \(name)") }
        var columns: [String] = []
        for foreignKey in schema.foreignKeys[name] ?? [] {
            columns.append(foreignKey.column)
            if let position = foreignKey.positionColumn { columns.append(position) }
        }
        let state = EntityState(entity: entity, linkColumns: columns)
        entities[name] = state
        return state
    }

    // MARK: Ids and rows

    /// A new `_id` for an object of `entity` the import creates.
    public func newID(_ entity: String) throws -> Int64 {
        // The entities of one inheritance hierarchy share one `_id` space, so one reservation.
        let space: String
        if let known = idSpaces[entity] {
            space = known
        } else {
            space = schema.model.entitiesSharingIDs(with: entity)[0]
            idSpaces[entity] = space
        }
        let state = state(space)
        if state.reserved.isEmpty {
            // Blocks that double from one up to 1,024: a statement per block, never a query per
            // object, and a PostgreSQL sequence (which cannot give back what it issued) loses less
            // than half of what an import used, never a thousand ids to a three-object import.
            let count = min(max(1, 2 * state.lastBlock), 1_024)
            state.lastBlock = count
            state.reserved = try backend.newIDs(entity: entity, after: state.lastReserved, count: count).reversed()
            state.lastReserved = state.reserved.first
        }
        let id = state.reserved.removeLast()
        return id
    }

    /// A new row with `id` (from `newID`): attributes not given take their default, else null (an
    /// error when required), as an insert of a change set.
    public func insert(_ entity: EntityDescription, id: Int64, attributes: [String: AttributeValue]) throws {
        let state = state(entity.name)
        var values: [AttributeValue] = []
        values.reserveCapacity(entity.attributes.count)
        for attribute in entity.attributes {
            let value = try backend.insertValue(attribute, given: attributes, entity: entity)
            if case .binary(let bytes) = value { bufferedBytes += bytes.count }
            values.append(value)
        }
        var links = [Int64?](repeating: nil, count: state.linkColumns.count)
        _ = state.earlyRuns.take(id, into: &links)
        if let early = state.early.removeValue(forKey: id) {
            for (column, value) in early { links[column] = value }
        }
        state.waiting[id] = state.rows.count
        state.rows.append(Row(id: id, attributes: values, links: links))
        let full = state.rows.count >= GraphRowWriter.batchRows
        if full { try flush(entity.name) }
        if bufferedBytes > GraphRowWriter.batchBytes { try flushAll() }
    }

    /// Numbers a value of `attribute` of `entity` that clashes with one already in the table or
    /// in the import, as `rebuild: suffix` numbers a clone's (docs/architecture.md#unique-values-on-copy).
    public func numberClashes(of entity: EntityDescription, attribute name: String, suffix: CopySuffix) {
        guard let index = entity.attributes.firstIndex(where: { $0.name == name }) else { preconditionFailure("unknown attribute \(entity.name).\(name)") }
        copySuffixes[entity.name, default: []].append((index, entity.attributes[index], CopySuffixClashes(suffix: suffix)))
        suffixedAttributes.append("\(entity.name).\(name)")
    }

    /// The batch's clashing values of each numbered attribute of its entity, renamed: one query
    /// per attribute and batch, after the attribute's lock.
    private func numberClashes(in state: EntityState) throws {
        let name = state.entity.name
        for ruled in copySuffixes[name] ?? [] {
            let values = state.rows.map { row -> String? in
                if case .string(let value) = row.attributes[ruled.index] { return value }
                return nil
            }
            if !copySuffixLocks.contains("\(name).\(ruled.attribute.name)") { try lockCopySuffixes() }
            let existing = try backend.values(of: ruled.attribute, entity: name, in: ruled.clashes.ranges(of: values))
            for (row, value) in ruled.clashes.numbered(values, existing: existing).enumerated() where value != values[row] {
                state.rows[row].attributes[ruled.index] = value.map(AttributeValue.string) ?? .null
            }
        }
    }

    /// Every numbered attribute's lock not yet held, in `CopySuffixLock`'s order, as a clone takes
    /// its own: an import that took each as its batches met the entity could hold one a clone
    /// waits for while it waits for another the clone holds.
    private func lockCopySuffixes() throws {
        for attribute in CopySuffixLock.inLockOrder(suffixedAttributes) where copySuffixLocks.insert(attribute).inserted {
            try backend.lockCopySuffix(attribute)
        }
    }

    private func flush(_ name: String) throws {
        guard let state = entities[name], !state.rows.isEmpty else { return }
        try numberClashes(in: state)
        let entity = state.entity
        var columns: [(name: String, type: AttributeType?)] = [("_id", nil)]
        columns += entity.attributes.map { ($0.name, $0.type) }
        columns += state.linkColumns.map { ($0, nil) }
        var rows: [[AttributeValue]] = []
        rows.reserveCapacity(state.rows.count)
        for row in state.rows {
            var values: [AttributeValue] = [.integer(row.id)]
            values.reserveCapacity(columns.count)
            values += row.attributes
            values += row.links.map { $0.map(AttributeValue.integer) ?? .null }
            rows.append(values)
            state.written.append(row.id)
            state.writtenSet.insert(row.id)
            for value in row.attributes { if case .binary(let bytes) = value { bufferedBytes -= bytes.count } }
        }
        let count = state.rows.count
        state.rows.removeAll(keepingCapacity: true)
        state.waiting.removeAll(keepingCapacity: true)
        try backend.insertRows(table: name, columns: columns, rows: rows, entity: name, ignoringDuplicates: false)
        progress?.addWritten(count)
    }

    private func flushAll() throws {
        for name in entities.keys.sorted() { try flush(name) }
    }

    /// Sets a reference (or position) column of a row of the import, whether it is still to come,
    /// waiting in a batch, or written.
    private func setColumn(_ entityName: String, id: Int64, column: Int, value: Int64?) throws {
        let state = state(entityName)
        let name = state.linkColumns[column]
        if let index = state.waiting[id] {
            state.rows[index].links[column] = value
        } else if state.writtenSet.contains(id) {
            try backend.setColumns(table: entityName, id: id, [(name, value)])
        } else {
            state.early[id, default: []].append((column, value))
        }
    }

    // MARK: Links

    /// One target of a link: a row of the import (`isNew`) or an existing object.
    public struct Target {
        public var id: Int64
        public var isNew: Bool
        public init(id: Int64, isNew: Bool) {
            self.id = id
            self.isNew = isNew
        }
    }

    /// Links new object `source` through `relationship` to `targets` (in order, for an ordered
    /// to-many), writing the pair where the schema keeps it. Existing targets whose record holds
    /// the inverse take one version step at the end; one the import puts in an ordered list of
    /// theirs goes at its end. `places`, one per target, are the positions of a part of an
    /// ordered list declared into a hierarchy (its places in the whole list); nil numbers the
    /// targets from 0.
    public func link(_ relationship: RelationshipDescription, from source: Int64, to targets: [Target], places: [Int64]? = nil) throws {
        precondition(places == nil || places?.count == targets.count, "\(relationship.qualifiedName): one place per target")
        func listPlace(_ place: Int) -> Int64 { places?[place] ?? Int64(place) }
        let (plan, hasInverse) = linkPlan(relationship)
        if hasInverse {
            for target in targets where !target.isNew { touched[relationship.destination, default: []].insert(target.id) }
        }
        switch plan {
        case .sourceColumn(let column, let append):
            guard let target = targets.first else { return }
            try setColumn(relationship.source, id: source, column: column, value: target.id)
            if let append { appends[append, default: []].insert(source) }
        case .destinationColumn(let table, let column, let columnIndex, let position, let positionIndex):
            let destination = state(table)
            for (place, target) in targets.enumerated() {
                if target.isNew {
                    if destination.waiting[target.id] == nil, !destination.writtenSet.contains(target.id),
                        destination.earlyRuns.add(id: target.id, column: columnIndex, value: source, positionColumn: positionIndex, position: listPlace(place))
                    {
                        continue
                    }
                    try setColumn(table, id: target.id, column: columnIndex, value: source)
                    if let positionIndex { try setColumn(table, id: target.id, column: positionIndex, value: listPlace(place)) }
                } else {
                    // An existing object moved into the new one's list (a document may name one).
                    var values: [(column: String, value: Int64?)] = [(column, source)]
                    if let position { values.append((position, listPlace(place))) }
                    try backend.setColumns(table: table, id: target.id, values)
                    touched[table, default: []].insert(target.id)
                }
            }
        case .joinRows(let key, let hasPosition, let hasOtherPosition, let append, let mirror):
            var count = 0
            for (place, target) in targets.enumerated() {
                var row: [AttributeValue] = [.integer(source), .integer(target.id)]
                if hasPosition { row.append(.integer(listPlace(place))) }
                if hasOtherPosition { row.append(.null) }
                joinRows[key, default: []].append(row)
                if let mirror { joinRows[mirror, default: []].append([.integer(source), .integer(target.id)]) }
            }
            count = joinRows[key]?.count ?? 0
            if let append { appends[append, default: []].insert(source) }
            if count >= GraphRowWriter.batchRows {
                try flushJoins(key)
                if let mirror { try flushJoins(mirror) }
            }
        }
    }

    private func flushJoins(_ name: String) throws {
        guard let rows = joinRows[name], !rows.isEmpty, let columns = joinColumns[name] else { return }
        joinRows[name] = []
        let table = String(name.prefix(while: { $0 != "|" }))
        try backend.insertRows(
            table: table, columns: columns.map { ($0, nil) }, rows: rows, entity: table, ignoringDuplicates: true)
    }

    // MARK: The end

    /// Writes what is still waiting, then what needs every row: places at the ends of lists,
    /// version steps of the existing objects linked, the required relationships of the new objects.
    /// Returns the new ids per entity.
    public func finish() throws -> [String: [Int64]] {
        try flushAll()
        for (name, state) in entities where !state.early.isEmpty || !state.earlyRuns.isEmpty {
            preconditionFailure("\(name) \(state.early.keys.min().map(String.init) ?? "(a listed row)") was linked but never inserted")
        }
        for name in joinRows.keys.sorted() { try flushJoins(name) }
        for (key, ids) in appends.sorted(by: { "\($0.key)" < "\($1.key)" }) {
            try backend.perform({ GraphRowWriter.appendSQL(key, inIDs: $0) }, ids: ids.sorted())
        }
        for (name, ids) in touched.sorted(by: { $0.key < $1.key }) where !ids.isEmpty {
            try backend.bumpVersions(entity: name, ids: ids.sorted())
        }
        var written: [String: [Int64]] = [:]
        for (name, state) in entities.sorted(by: { $0.key < $1.key }) where !state.written.isEmpty {
            try backend.checkRequiredRelationships(state.entity, ids: state.written)
            written[name] = state.written
        }
        return written
    }

    /// Numbers the new rows of one list column without a place, after the list's last place, in
    /// the order of their ids (the order the import made them); the same statement on both
    /// backends, `inIDs` the dialect's "`IN` these ids".
    private static func appendSQL(_ key: AppendKey, inIDs: String) -> String {
        let table = quoted(key.table), owner = quoted(key.owner), position = quoted(key.position), newSide = quoted(key.newSide)
        let match = key.isJoinTable ? "\(table).\"src\" = n.\"src\" AND \(table).\"dst\" = n.\"dst\"" : "\(table).\"_id\" = n.\"_id\""
        let keys = key.isJoinTable ? "y.\"src\", y.\"dst\"" : "y.\"_id\""
        let end =
            key.end
            ?? "(SELECT coalesce(max(x.\(position)), -1) FROM \(table) AS x WHERE x.\(owner) = y.\(owner) AND x.\(position) IS NOT NULL)"
        return """
            UPDATE \(table) SET \(position) = n.place FROM (SELECT \(keys), \
            \(end) + row_number() OVER (PARTITION BY y.\(owner) ORDER BY y.\(newSide)) AS place \
            FROM \(table) AS y WHERE y.\(newSide) \(inIDs) AND y.\(position) IS NULL AND y.\(owner) IS NOT NULL) AS n WHERE \(match)
            """
    }
}

extension StoreContext {
    /// A writer of an imported graph's rows into this context's transaction (see `GraphRowWriter`).
    public func graphRowWriter(progress: GraphCopyProgress? = nil) -> GraphRowWriter {
        GraphRowWriter(backend: rowAccess.context, progress: progress)
    }
}
