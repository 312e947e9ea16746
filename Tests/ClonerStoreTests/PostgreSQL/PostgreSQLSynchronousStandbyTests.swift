import ClonerModel
@testable import ClonerStore
import ClonerTestSupport
import Foundation
import Synchronization
import Testing

/// `requireSynchronousStandby`: a write commits only where a synchronous standby will have it.
/// The test cluster has no standby: a guarded write is refused before its COMMIT; with a standby
/// named that never answers, its COMMIT waits until cancelled — as pg_auto_failover's keeper
/// cancels every waiting session when it turns synchronous replication off — and is then kept by
/// the primary alone, which the store must not report as a plain success.
@Suite(.requiresPostgreSQL, .serialized) struct PostgreSQLSynchronousStandbyTests {
    @Test func aWriteWithNoSynchronousStandbyIsRefusedAndNothingIsWritten() throws {
        let database = try PostgreSQLFixtures.database()
        let admin = try PostgreSQLFixtures.connect(database)
        // The database's sessions wait for standbys at COMMIT (the test cluster itself does not):
        // what is missing is only a standby to wait for.
        try admin.execute("ALTER DATABASE \"\(database.name)\" SET synchronous_commit = on")
        let guarded = try IncrementalStore(
            location: StoreLocation(database.uri), model: StoreFixtures.notesModel(), requireSynchronousStandby: true)
        #expect {
            try guarded.save(ChangeSet(inserts: [StoreFixtures.note("refused")]))
        } throws: { error in
            guard case StoreError.unavailable(let reason, outcomeUnknown: false) = error else { return false }
            return reason.contains("synchronous_standby_names")
        }
        #expect(try guarded.read { try $0.fetchIDs(FetchRequest(entity: "Note")) }.isEmpty, "rolled back, and reads still answer")

        // The same database, without the guard: the write commits.
        let plain = try IncrementalStore(location: StoreLocation(database.uri), model: StoreFixtures.notesModel())
        try plain.save(ChangeSet(inserts: [StoreFixtures.note("kept")]))
        #expect(try plain.read { try $0.fetchIDs(FetchRequest(entity: "Note")) }.count == 1)
    }

    @Test func aWriteWhoseCommitIsNotWaitedForIsRefusedToo() throws {
        // The cluster's own `synchronous_commit = off`: a COMMIT would not wait for any standby.
        let connection = try PostgreSQLFixtures.connection()
        try connection.execute("CREATE TABLE guarded (id int8)")
        #expect {
            try connection.transaction(.readCommitted, onSynchronousStandby: true) { try connection.execute("INSERT INTO guarded VALUES (1)") }
        } throws: { error in
            (error as? PostgreSQLError)?.code == .noSynchronousStandby && "\(error)".contains("synchronous_commit")
        }
        #expect(try connection.query("SELECT count(*) FROM guarded")[0].int64(0) == 0)
        // One that wrote nothing is refused as well: a guarded write is also the barrier a retry's
        // replay of an earlier answer waits behind.
        #expect(throws: PostgreSQLError.self) { try connection.transaction(.readCommitted, onSynchronousStandby: true) {} }
    }

    /// Names a standby that never connects (cluster-wide, reset at the end; the other tests'
    /// databases commit with `synchronous_commit = off`, which never waits), lets a guarded write
    /// wait at its COMMIT, cancels that wait as the keeper does, and checks the write is reported
    /// with an unknown outcome although the primary kept it. A reload reaches the sessions and the
    /// checkpointer (which tells commits to wait) at their own pace, so the writer saves again
    /// until one save waits: those before it are refused (no standby named yet) or commit at once.
    @Test func aCommitWhoseWaitIsCancelledHasAnUnknownOutcome() throws {
        let database = try PostgreSQLFixtures.database()
        let admin = try PostgreSQLFixtures.connect(database)
        try admin.execute("ALTER DATABASE \"\(database.name)\" SET synchronous_commit = on")
        let store = try IncrementalStore(location: StoreLocation(database.uri), model: StoreFixtures.notesModel(), requireSynchronousStandby: true)
        try admin.execute("ALTER SYSTEM SET synchronous_standby_names = 'never_connects'")
        try admin.execute("SELECT pg_reload_conf()")
        defer {
            try? admin.execute("ALTER SYSTEM RESET synchronous_standby_names")
            try? admin.execute("SELECT pg_reload_conf()")
        }
        let deadline = Date().addingTimeInterval(30)
        // The last save's error once it is not a refusal, and the saves that committed before it.
        let outcome = Mutex<(error: (any Error)?, committed: Int64, done: Bool)>((nil, 0, false))
        let writer = Thread {
            while Date() < deadline {
                do {
                    _ = try store.save(ChangeSet(inserts: [StoreFixtures.note("kept alone")]))
                    outcome.withLock { $0.committed += 1 }
                } catch StoreError.unavailable(_, outcomeUnknown: false) {
                    continue  // refused: this session has not heard of the standby yet
                } catch {
                    outcome.withLock { $0.error = error }
                    break
                }
            }
            outcome.withLock { $0.done = true }
        }
        writer.start()
        // The keeper's cancel: every session waiting for synchronous replication.
        var cancelled: Int64 = 0
        while cancelled == 0 && Date() < deadline {
            cancelled = try admin.query(
                "SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND datname = $1",
                [.text(database.name)])[0].int64(0)
            if cancelled == 0 { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(cancelled == 1, "a write waited at its COMMIT for the named standby")
        while !outcome.withLock({ $0.done }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let (error, committed, _) = outcome.withLock { $0 }
        let failure = try #require(error, "the write whose wait was cancelled returned an error")
        guard case StoreError.unavailable(let reason, outcomeUnknown: true) = failure else {
            Issue.record("expected an unknown outcome, got \(failure)")
            return
        }
        #expect(reason.contains("synchronous standby was cancelled"), "\(reason)")
        let kept = try admin.query("SELECT count(*) FROM \"Note\"")[0].int64(0)
        #expect(kept == committed + 1, "the primary kept the cancelled one too: which is why it is not reported as failed either")
    }
}
