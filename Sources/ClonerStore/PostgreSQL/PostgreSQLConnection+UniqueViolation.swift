extension PostgreSQLConnection {
    /// A failed statement aborts the transaction here: the savepoint keeps what came before.
    func skippingUniqueViolation(_ body: () throws -> Void) throws -> Bool {
        try execute("SAVEPOINT cloner_unique")
        do {
            try body()
            try execute("RELEASE SAVEPOINT cloner_unique")
            return true
        } catch let error as PostgreSQLError where error.isUniqueViolation {
            try execute("ROLLBACK TO SAVEPOINT cloner_unique")
            try execute("RELEASE SAVEPOINT cloner_unique")
            return false
        }
    }
}
