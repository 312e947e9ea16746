extension RootLinkSQL.Dialect {
    /// The map in `pg_temp` (its copy number is `cp`); the listed ids an `int8[]` unnested with
    /// its 1-based ordinality.
    static let postgreSQL = RootLinkSQL.Dialect(
        copiesOfRoot: "SELECT new FROM \(PostgreSQLGraphCopySQL.mapTable) WHERE ent = $1::int4 AND old = $2::int8",
        copiesWithList: """
            FROM \(PostgreSQLGraphCopySQL.mapTable) AS m CROSS JOIN unnest($3::int8[]) WITH ORDINALITY AS a(id, ord) \
            WHERE m.ent = $1::int4 AND m.old = $2::int8
            """,
        listedID: "a.id", listedPlace: "a.ord - 1", copyNumber: "m.cp")
}
