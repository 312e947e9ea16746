/// One step of a recursive closure (`SQLDialect.closure`): from a row `c` of entity tag
/// `c.ent` found so far, the rows of `table` (as `t`) that `condition` joins to it, each giving
/// an object of entity tag `entity` whose `_id` is the expression `id`.
struct SQLClosureEdge {
    var entity: Int
    var id: String
    var table: String
    var condition: String
}
