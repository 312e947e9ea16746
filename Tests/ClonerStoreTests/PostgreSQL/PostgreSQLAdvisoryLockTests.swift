@testable import ClonerStore
import Foundation
import Testing

/// One replica migrates the schema while the others wait: the advisory lock excludes a second holder.
@Suite(.requiresPostgreSQL)
struct PostgreSQLAdvisoryLockTests {
    @Test func heldLockExcludesASecondSession() throws {
        let database = try PostgreSQLFixtures.database()
        let first = try PostgreSQLFixtures.connect(database)
        let second = try PostgreSQLFixtures.connect(database)
        let key = PostgreSQLConnection.advisoryLockKey("cloner.schema-migration")
        try first.withAdvisoryLock(key: key) {
            #expect(try second.tryAdvisoryLock(key: key) == false)
            try second.transaction { () throws in
                #expect(try second.tryAdvisoryTransactionLock(key: key) == false)
            }
        }
        #expect(try second.tryAdvisoryLock(key: key) == true)
        #expect(try first.tryAdvisoryLock(key: key) == false)
        #expect(try second.releaseAdvisoryLock(key: key) == true)

        // A transaction-level lock ends with its transaction.
        try second.transaction { () throws in
            #expect(try second.tryAdvisoryTransactionLock(key: key) == true)
            #expect(try first.tryAdvisoryLock(key: key) == false)
        }
        #expect(try first.tryAdvisoryLock(key: key) == true)
        try first.releaseAdvisoryLock(key: key)
    }

    @Test func secondHolderWaitsUntilTheFirstReleases() throws {
        let database = try PostgreSQLFixtures.database()
        let pool = PostgreSQLConnectionPool(configuration: .init(uri: database.uri, maximumConnections: 2))
        let key = PostgreSQLConnection.advisoryLockKey("cloner.wait-test")
        let held = DispatchSemaphore(value: 0)
        let releasedAt = LockedDate()
        DispatchQueue.global().async {
            _ = try? pool.withConnection { connection in
                try connection.withAdvisoryLock(key: key) {
                    held.signal()
                    Thread.sleep(forTimeInterval: 0.3)
                    releasedAt.set(Date())
                }
            }
        }
        held.wait()
        let acquiredAt = try pool.withConnection { connection in
            try connection.withAdvisoryLock(key: key) { Date() }
        }
        let released = try #require(releasedAt.get())
        #expect(acquiredAt >= released)
    }
}

/// A date written by one thread and read by another.
private final class LockedDate: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date?
    func set(_ date: Date) { lock.lock(); value = date; lock.unlock() }
    func get() -> Date? { lock.lock(); defer { lock.unlock() }; return value }
}
