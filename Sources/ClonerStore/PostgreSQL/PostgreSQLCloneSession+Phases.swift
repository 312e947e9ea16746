extension PostgreSQLCloneSession {
    /// What the clones of a transaction leave to its end: the linked objects' version steps sent
    /// with the COMMIT, the work tables' truncation right after it, whether the copies reference
    /// rows they did not lock, and what the walk table holds if the transaction commits.
    struct CommitWork {
        var beforeCommit: [PostgreSQLConnection.PipelinedStatement] = []
        var afterCommit: [PostgreSQLConnection.AfterCommitStatement] = []
        var referencesUnlockedRows = false
        /// Nil: the transaction did not write the walk table; `.some(nil)`: it holds no remembered
        /// walk once committed.
        var walkTableAtCommit: PostgreSQLSourceWalks.Held?? = nil

        /// A later clone's work after this one's, in the same transaction.
        mutating func add(_ later: CommitWork) {
            beforeCommit += later.beforeCommit
            afterCommit += later.afterCommit
            referencesUnlockedRows = referencesUnlockedRows || later.referencesUnlockedRows
            if let held = later.walkTableAtCommit { walkTableAtCommit = .some(held) }
        }
    }

    /// Where the session is in its write transactions, moved on by `event`, which answers what
    /// the session then does with the state it keeps.
    struct Phases {
        enum Phase {
            /// No write transaction open.
            case idle
            /// Run `attempt` of a write, no clone copied yet.
            case writing(attempt: Int)
            /// Run `attempt` of a write in which clones copied, with what they leave to its end.
            case copied(attempt: Int, work: CommitWork)
        }

        enum Event {
            case began(attempt: Int)
            case copied(CommitWork)
            case ended(committed: Bool)
        }

        enum Action {
            case none
            /// The work tables now hold this remembered walk (or none).
            case holdWalkTable(PostgreSQLSourceWalks.Held?)
        }

        private(set) var phase = Phase.idle

        mutating func event(_ event: Event) -> Action {
            switch (phase, event) {
            case (_, .began(let attempt)):
                phase = .writing(attempt: attempt)
                return .none
            case (.writing(let attempt), .copied(let work)):
                phase = .copied(attempt: attempt, work: work)
                return .none
            case (.copied(let attempt, var work), .copied(let later)):
                work.add(later)
                phase = .copied(attempt: attempt, work: work)
                return .none
            case (.copied(_, let work), .ended(committed: true)):
                phase = .idle
                guard let held = work.walkTableAtCommit else { return .none }
                return .holdWalkTable(held)
            case (_, .ended):
                phase = .idle
                return .none
            case (.idle, .copied(let work)):
                // A clone outside the store's write (none today): its work still goes with the
                // COMMIT, on a first run's terms.
                phase = .copied(attempt: 1, work: work)
                return .none
            }
        }

        /// Whether a write transaction is open (between `began` and `ended`).
        var isWriting: Bool {
            if case .idle = phase { return false }
            return true
        }

        /// Which run of the write is open (1 outside one).
        var attempt: Int {
            switch phase {
            case .idle: 1
            case .writing(let attempt), .copied(let attempt, _): attempt
            }
        }

        /// What the transaction's clones leave to its end, once one copied.
        var work: CommitWork? {
            if case .copied(_, let work) = phase { return work }
            return nil
        }
    }

    /// How a clone makes sure its source stays the walk it copies.
    enum SourceGuard {
        /// Lock nothing; compare the walked versions again after the last read of the source: a
        /// small clone's first two runs, so that clones of one template do not each lock its rows.
        /// Two, because the first may use a remembered walk that any edit since the session's
        /// last clone of the source has put out of date: that is no sign of an edit during the
        /// clone, and the lock, whose order is not an editor's, can deadlock with one.
        case checkAfterLastRead
        /// Lock the walked rows `FOR SHARE` before the writes, waiting only briefly for an edit
        /// that holds them: a small clone's later runs, so a template edited without pause is
        /// still copied.
        case lockWaitingBriefly
        /// Lock the walked rows before the writes: a large clone, for which a change found only
        /// at its end would cost all its work.
        case lockFirst

        init(smallClone: Bool, attempt: Int) {
            self = !smallClone ? .lockFirst : attempt <= 2 ? .checkAfterLastRead : .lockWaitingBriefly
        }
    }
}
