import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// The real `cloner` on a pg_auto_failover formation while clients clone: a crashed primary
/// (keeper and postmaster killed with SIGKILL), then a planned switchover. Through each, the
/// service keeps running and serves again once a primary answers; every refusal is 503
/// `database_unavailable` with `Retry-After`, never a 500; every clone a client saw acknowledged
/// exists once and no other was made (each client retries its own `Idempotency-Key` until
/// acknowledged); `/readyz` says why while the database is away; the log tells of the loss and
/// the return. The switchover runs through a second replica with `requireSynchronousStandby`,
/// which keeps that promise even when pg_auto_failover promotes a standby while the old primary
/// still takes writes alone. PostgreSQL only: a SQLite store has no failover.
@Suite(
    "End to end: PostgreSQL failover under load (pg_auto_failover)", .serialized,
    .enabled(if: AutoFailoverFormation.isEnabled, Comment(rawValue: AutoFailoverFormation.skipReason)))
struct FailoverEndToEndTests {
    typealias F = EndToEndFixture

    static let clients = 6

    @Test("a crashed primary, then a switchover: served again without a restart, each acknowledged clone exactly once, only 503s")
    func crashThenSwitchover() async throws {
        let formation = try await Blocking.run { try AutoFailoverFormation() }
        defer { formation.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let service = try await ServiceProcess.start(directory: directory.url, backend: .postgreSQL, sharedDatabase: formation.uri)
        defer { service.stop() }
        let note = try await service.client.create("notes", F.note(#""name":"through the failover""#))
        let noteID = try #require(F.int(note["_id"]))

        let crash = try await Self.throughDisruption("crash of the primary", service: service, noteID: noteID) {
            let killed = try formation.killPrimary()
            let promoted = try formation.waitForPrimary(otherThan: killed)
            return "node \(killed) killed, node \(promoted) promoted"
        }
        #expect(crash.readinessRefusals > 0, "/readyz said 503 at least once while no primary answered")
        print("failover (SIGKILL of the primary): \(crash)")

        // The killed node back as a secondary, so that a switchover has somewhere to go.
        let killedPort = try #require(formation.nodePorts.first { port in !formation.state().contains { $0.port == port && $0.isPrimary } })
        try await Blocking.run {
            try formation.revive(nodeAt: killedPort)
            try formation.waitUntilPrimaryAndSecondary()
        }
        // The switchover through a second replica that commits only where the synchronous standby
        // has the write: a switchover that meets a primary in wait_primary (pg_auto_failover 2.0
        // then promotes the standby while the old primary still takes writes alone) loses
        // acknowledged clones of a replica without it, and none of this one's.
        let guardedDirectory = try TemporaryDirectory()
        defer { guardedDirectory.remove() }
        let guarded = try await ServiceProcess.start(
            directory: guardedDirectory.url, backend: .postgreSQL, environment: ["CLONER_REQUIRE_SYNCHRONOUS_STANDBY": "true"],
            sharedDatabase: formation.uri)
        defer { guarded.stop() }
        let mark = formation.keeperLogMark()
        let switchover = try await Self.throughDisruption("switchover", service: guarded, noteID: noteID) {
            try formation.switchover()
            return "switched over to node \(formation.state().first(where: \.isPrimary)?.port ?? 0)"
        }
        let gap = formation.keeperCouldNotDemoteFromWaitPrimary(since: mark) ? "met" : "not met"
        print("switchover (requireSynchronousStandby; pg_auto_failover's wait_primary gap \(gap)): \(switchover)")
        #expect(service.isRunning && guarded.isRunning, "the same processes served throughout")
    }

    /// What a disruption looked like from the clients.
    struct Outcome: CustomStringConvertible {
        let what: String
        /// From the disruption to the first acknowledged clone sent after it began.
        let untilFirstAcknowledgment: Duration
        /// The longest any client waited between two acknowledgments.
        let longestStall: Duration
        let acknowledged: Int
        let refusals: Int
        let readinessRefusals: Int

        var description: String {
            "\(what): first acknowledged clone \(Self.seconds(untilFirstAcknowledgment)) after it, longest client stall "
                + "\(Self.seconds(longestStall)); \(acknowledged) clones acknowledged, \(refusals) answers 503, "
                + "\(readinessRefusals) /readyz answers 503"
        }

        static func seconds(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            return String(format: "%.1f s", Double(seconds) + Double(attoseconds) / 1e18)
        }
    }

    /// Runs `CloneLoad` on the service, calls `disrupt` (which returns once the formation has a
    /// primary again, describing what happened) after about two seconds of acknowledged clones,
    /// waits until clones are acknowledged again, runs three seconds more, and checks everything
    /// the clients, the database and the log saw.
    static func throughDisruption(
        _ what: String, service: ServiceProcess, noteID: Int, disrupt: @escaping @Sendable () throws -> String
    ) async throws -> Outcome {
        let notesBefore = try await service.count("Note")
        let linesBefore = service.stdout.jsonLines.count
        let load = CloneLoad(port: service.port, noteID: noteID, clients: clients)
        load.start()
        do {
            return try await observe(
                load, through: what, service: service, disrupt: disrupt, notesBefore: notesBefore, linesBefore: linesBefore)
        } catch {
            _ = try? await Blocking.run { load.stop(timeout: .seconds(30)) }
            throw error
        }
    }

    /// The part of `throughDisruption` that runs while the clients clone.
    static func observe(
        _ load: CloneLoad, through what: String, service: ServiceProcess, disrupt: @escaping @Sendable () throws -> String,
        notesBefore: Int, linesBefore: Int
    ) async throws -> Outcome {
        let loaded = ContinuousClock.now
        try await eventually("clones acknowledged for two seconds before the \(what)", timeout: .seconds(120)) {
            ContinuousClock.now - loaded >= .seconds(2) && load.acknowledged.count >= clients
        }
        let disrupted = ContinuousClock.now
        let formation = try await Blocking.run { try disrupt() }
        try await eventually("a clone acknowledged after the \(what) (\(formation))", timeout: .seconds(180), poll: .milliseconds(50)) {
            load.firstAcknowledgment(sentAfter: disrupted) != nil
        }
        let firstBack = try #require(load.firstAcknowledgment(sentAfter: disrupted))
        let resumed = ContinuousClock.now
        try await eventually("three more seconds of clones after the \(what)", timeout: .seconds(120)) {
            ContinuousClock.now - resumed >= .seconds(3) && load.acknowledged.filter { $0.sent > resumed }.count >= clients
        }
        let stopped = try await Blocking.run { load.stop(timeout: .seconds(60)) }
        let refusals = load.refused
        // Every client saw its last clone acknowledged: a key whose claim's COMMIT was lost with
        // the database is given back (at the next lease tick or by its own retry), never left
        // in progress under this replica's renewed lease.
        #expect(stopped, "a client never saw its last clone acknowledged: \(describe(refusals.filter { $0.status == 409 }, in: load))")

        try await checkExactlyOnce(load, service: service, notesBefore: notesBefore)
        // A 500's own log lines (its request id's), so that one seen in a run says what it was.
        let internalErrors = refusals.filter { $0.status == 500 }.map { refusal -> String in
            guard let data = refusal.text.data(using: .utf8), let answer = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let id = answer["requestId"] as? String
            else { return "a 500 without a request id: \(refusal.text)" }
            return service.stdout.jsonLines.filter { $0["request_id"] as? String == id && $0["level"] as? String != "info" }.map { "\($0)" }
                .joined(separator: "\n")
        }
        #expect(internalErrors.isEmpty, "no 500 at all; logged for them: \(internalErrors.prefix(3))")
        // 409 `in_progress` is the answer, with `Retry-After`, to a key still held until the
        // next lease tick gives back what the lost database could not take.
        let others = refusals.filter {
            $0.retryAfter == nil
                || !(($0.status == 503 && $0.code == "database_unavailable") || ($0.status == 409 && $0.code == "in_progress"))
        }
        #expect(
            others.isEmpty,
            "every refusal is 503 database_unavailable (or 409 in_progress for a held key), with Retry-After; others: \(describe(others, in: load))")
        #expect(load.failures.isEmpty, "every request got an answer: \(load.failures.prefix(3))")
        let readiness = load.readinessAnswers
        for answer in readiness where answer.status != 200 {
            #expect(answer.status == 503 && !(answer.reason ?? "").isEmpty, "/readyz 503 says why: \(answer)")
        }
        #expect(try await service.client.get("/readyz").status == 200, "ready again after the \(what)")
        if !refusals.isEmpty {
            let lines = Array(service.stdout.jsonLines.dropFirst(linesBefore))
            let lost = lines.first { ($0["message"] as? String)?.hasPrefix("database lost") == true }
            let back = lines.first { $0["message"] as? String == "database back" }
            #expect(lost?["level"] as? String == "error", "the log tells the database was lost")
            #expect(back?["level"] as? String == "notice" && back?["node"] != nil, "the log tells the database is back, and on which node")
        }
        return Outcome(
            what: "\(what) (\(formation))", untilFirstAcknowledgment: firstBack.answered - disrupted,
            longestStall: longestStall(load.acknowledged), acknowledged: load.acknowledged.count, refusals: refusals.count,
            readinessRefusals: readiness.filter { $0.status == 503 }.count)
    }

    /// Refusals grouped by status and code, with the whole history of the first key refused so.
    static func describe(_ refusals: [CloneLoad.Refusal], in load: CloneLoad) -> String {
        let groups = Dictionary(grouping: refusals) { "\($0.status) \($0.code ?? "-")" }
        let acknowledgedKeys = Set(load.acknowledged.map(\.key))
        return groups.map { group, members in
            let key = members[0].key
            let history = load.refused.filter { $0.key == key }.map { "\($0.status) \($0.code ?? "-")" }
            return "\(members.count)× \(group) (keys: \(Set(members.map(\.key)).count); first key \(key) "
                + "\(acknowledgedKeys.contains(key) ? "acknowledged" : "never acknowledged") after \(history); "
                + "first answer: \(members[0].text))"
        }.sorted().joined(separator: "; ")
    }

    /// Every acknowledged clone is in the database, once, and the database holds no other: as
    /// many notes as before plus one per acknowledged key, read from the primary.
    static func checkExactlyOnce(_ load: CloneLoad, service: ServiceProcess, notesBefore: Int) async throws {
        let acknowledged = load.acknowledged
        #expect(Set(acknowledged.map(\.key)).count == acknowledged.count, "each key acknowledged once")
        let cloneIDs = acknowledged.compactMap(\.cloneID)
        #expect(cloneIDs.count == acknowledged.count, "every acknowledgment names its clone")
        #expect(Set(cloneIDs).count == cloneIDs.count, "no two keys answered with the same clone")
        let stored = Set(try await service.sql("SELECT \"_id\" FROM \"Note\"").split(separator: "\n").compactMap { Int($0) })
        let missing = Set(cloneIDs).subtracting(stored)
        #expect(missing.isEmpty, "acknowledged clones missing from the new primary: \(missing.sorted().prefix(10))")
        #expect(stored.count == notesBefore + acknowledged.count, "no clone made besides the acknowledged ones")
    }

    /// The longest time one client went between two acknowledged clones.
    static func longestStall(_ acknowledged: [CloneLoad.Acknowledgment]) -> Duration {
        Dictionary(grouping: acknowledged, by: \.client).values.map { answers in
            let times = answers.map(\.answered).sorted()
            return zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? .zero
        }.max() ?? .zero
    }
}
