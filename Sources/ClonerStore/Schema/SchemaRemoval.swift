/// Something a migration drops that may hold data: a removed entity's table, a removed attribute's
/// column, a removed relationship's reference column or join table. Dropping it is safe only when
/// it holds nothing, so each is counted before any step runs, in the migration's transaction, and
/// the migration is refused, naming it and the count, when it holds something.
enum SchemaRemoval: Equatable {
    /// A removed entity: its table, holding rows or not.
    case entity(String)
    /// A removed attribute: its column, holding a value in some row or all NULL.
    case attribute(entity: String, attribute: String)
    /// A removed relationship stored as a reference column on `entity`'s table.
    case referenceColumn(entity: String, relationship: String, column: String)
    /// A removed relationship stored in a join table (named by the side that owns the table).
    case joinTable(entity: String, relationship: String, table: String)
    /// A removed ordered to-many whose inverse stays: the links stay in the inverse's column on
    /// `table`, the order in position `column` goes.
    case order(entity: String, relationship: String, table: String, column: String)
}

extension SchemaRemoval {
    /// Counts what would be lost: rows of a table, or rows whose column holds a value (a NULL is
    /// no data).
    var countStatement: String {
        switch self {
        case .entity(let entity): return "SELECT count(*) FROM \(quoted(entity))"
        case let .attribute(entity, column), let .referenceColumn(entity, _, column), let .order(_, _, entity, column):
            return "SELECT count(*) FROM \(quoted(entity)) WHERE \(quoted(column)) IS NOT NULL"
        case let .joinTable(_, _, table): return "SELECT count(*) FROM \(quoted(table))"
        }
    }

    /// Why the migration is refused when `count` (more than zero) is what `countStatement` found.
    func refusal(count: Int64) -> String {
        switch self {
        case .entity(let entity): return "entity \(entity): removed, but its table holds \(Self.rows(count))"
        case let .attribute(entity, attribute):
            return "\(entity).\(attribute): attribute was removed (or renamed without originalName), but \(Self.rowsHold(count)) a value"
        case let .referenceColumn(entity, relationship, _):
            return "\(entity).\(relationship): relationship was removed, but \(Self.rowsHold(count)) a link"
        case let .joinTable(entity, relationship, _):
            return "\(entity).\(relationship): relationship was removed, but its join table holds \(count) link\(count == 1 ? "" : "s")"
        case let .order(entity, relationship, _, _):
            return "\(entity).\(relationship): relationship was removed, but \(Self.rowsHold(count)) its order (its inverse keeps the links)"
        }
    }

    /// The removal as a line of the start-up log, once it was found empty.
    var logDescription: String {
        switch self {
        case .entity(let entity): return "entity \(entity) removed (its table held no rows)"
        case let .attribute(entity, attribute): return "\(entity).\(attribute) removed (no row held a value)"
        case let .referenceColumn(entity, relationship, _): return "\(entity).\(relationship) removed (no row held a link)"
        case let .joinTable(entity, relationship, _): return "\(entity).\(relationship) removed (its join table held no links)"
        case let .order(entity, relationship, _, _): return "\(entity).\(relationship) removed (no row held its order; its inverse keeps the links)"
        }
    }

    private static func rows(_ count: Int64) -> String { count == 1 ? "1 row" : "\(count) rows" }

    private static func rowsHold(_ count: Int64) -> String { count == 1 ? "1 row holds" : "\(count) rows hold" }
}
