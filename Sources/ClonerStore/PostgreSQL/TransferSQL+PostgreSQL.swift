extension TransferSQL.Dialect {
    static let postgreSQL = TransferSQL.Dialect(parameterPrefix: "$")
}
