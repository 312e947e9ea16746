extension SQLiteConnection {
    /// A failed statement is undone by itself here, the transaction going on.
    func skippingUniqueViolation(_ body: () throws -> Void) throws -> Bool {
        do {
            try body()
            return true
        } catch let error as SQLiteError where error.isUniqueViolation {
            return false
        }
    }
}
