extension RootLinkSQL.Dialect {
    /// The map in the temp schema; the listed ids a JSON array read by `json_each` (`key` is the
    /// 0-based place).
    static let sqlite = RootLinkSQL.Dialect(
        copiesOfRoot: "SELECT new FROM \(SQLiteGraphCopySQL.mapTable) WHERE ent = ?1 AND old = ?2",
        copiesWithList: "FROM \(SQLiteGraphCopySQL.mapTable) AS m, json_each(?3) AS j WHERE m.ent = ?1 AND m.old = ?2",
        listedID: "j.value", listedPlace: "j.key", copyNumber: "m.cp")
}
