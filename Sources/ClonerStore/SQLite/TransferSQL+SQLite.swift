extension TransferSQL.Dialect {
    /// Numbered `?NNN` parameters, which SQLite binds by position like `?`.
    static let sqlite = TransferSQL.Dialect(parameterPrefix: "?")
}
