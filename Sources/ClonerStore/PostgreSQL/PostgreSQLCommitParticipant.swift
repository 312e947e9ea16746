/// What a caller of `PostgreSQLConnection.transaction` adds to the end of its transaction:
/// statements that go out in the COMMIT's round trip, and what it learns of the outcome. The
/// connection runs them without knowing what they are for; the one that needs them (the clone's
/// session, `PostgreSQLCloneSession`) keeps its bookkeeping to itself.
package protocol PostgreSQLCommitParticipant: AnyObject {
    /// Statements sent right before the COMMIT, in its pipeline: a row lock they take is held for
    /// their run and the commit's flush only (`PostgreSQLConnection.transaction`).
    var statementsBeforeCommit: [PostgreSQLConnection.PipelinedStatement] { get }
    /// Statements sent right after the COMMIT, each in a transaction of its own, whose results the
    /// transaction's answer does not wait for (`PostgreSQLConnection.settleAfterCommit`).
    var statementsAfterCommit: [PostgreSQLConnection.AfterCommitStatement] { get }
    /// The transaction ended: committed, or rolled back (or its COMMIT failed).
    func transactionEnded(committed: Bool)
    /// The error a failed COMMIT is reported as: the participant may know it for a conflict with
    /// another transaction that a new run resolves.
    func commitFailure(_ error: PostgreSQLError) -> PostgreSQLError
}

/// A participant that only holds statements: what the body adds is sent with the COMMIT, and
/// emptied when the transaction ends either way.
package final class PostgreSQLCommitStatements: PostgreSQLCommitParticipant {
    package var statementsBeforeCommit: [PostgreSQLConnection.PipelinedStatement] = []
    package var statementsAfterCommit: [PostgreSQLConnection.AfterCommitStatement] = []

    package init() {}

    package func transactionEnded(committed: Bool) {
        statementsBeforeCommit.removeAll()
        statementsAfterCommit.removeAll()
    }

    package func commitFailure(_ error: PostgreSQLError) -> PostgreSQLError { error }
}
