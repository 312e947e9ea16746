import ClonerService
import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// A start that changes the database says so in the log before `listening`: created on the
/// first start, migrated (with each change) when the model grew, nothing when it matches.
@Suite("Service: the start-up log names a migration")
struct MigrationLogServiceTests {
    static let before = """
        { "entities": [ { "name": "Memo", "collection": "memos", "attributes": [
            { "name": "text", "type": "string", "optional": true } ] } ] }
        """
    static let after = """
        { "entities": [ { "name": "Memo", "collection": "memos", "attributes": [
            { "name": "text", "type": "string", "optional": true },
            { "name": "pinned", "type": "boolean", "default": false } ] } ] }
        """

    /// `after`, less an entity and an attribute: what apps' model versions remove.
    static let withRemovable = """
        { "entities": [ { "name": "Memo", "collection": "memos", "attributes": [
            { "name": "text", "type": "string", "optional": true },
            { "name": "legacy", "type": "string", "optional": true } ] },
          { "name": "Draft", "collection": "drafts", "attributes": [
            { "name": "body", "type": "string", "optional": true } ] } ] }
        """

    static func line(_ service: TestService, _ message: String) -> [String: Any]? {
        service.log.lines.lazy
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["message"] as? String == message }
    }

    @Test("created, then migrated with its steps, then nothing", arguments: StoreBackendKind.available)
    func migrationIsLogged(_ backend: StoreBackendKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let before = try directory.write(Self.before, to: "before.json")
        let after = try directory.write(Self.after, to: "after.json")

        let first = try await TestService.start(directory: directory.url, backend: backend, overrides: .init(modelPath: before))
        let database = first.databaseLocation
        #expect(Self.line(first, "store created") != nil, "\(first.log.text)")
        #expect(Self.line(first, "store migrated") == nil)
        await first.stop()

        let second = try await TestService.start(
            directory: directory.url, backend: backend, overrides: .init(modelPath: after),
            sharedDatabase: backend == .postgreSQL ? database : nil)
        let migrated = try #require(Self.line(second, "store migrated"), "no migration line: \(second.log.text)")
        #expect(Self.line(second, "store created") == nil)
        #expect(migrated["changes"] as? String == "1", "\(migrated)")
        let steps = try #require(migrated["steps"] as? String)
        #expect(steps.contains("ADD COLUMN") && steps.contains("pinned"), "\(steps)")
        #expect(migrated["from_schema"] as? String != migrated["to_schema"] as? String)
        #expect(migrated["level"] as? String == "notice")
        // Logged before the service listens.
        let lines = second.log.lines
        let migratedAt = lines.firstIndex { $0.contains("\"store migrated\"") }
        let listeningAt = lines.firstIndex { $0.contains("\"listening\"") }
        #expect(migratedAt != nil && listeningAt != nil && migratedAt! < listeningAt!)
        await second.stop()

        let third = try await TestService.start(
            directory: directory.url, backend: backend, overrides: .init(modelPath: after),
            sharedDatabase: backend == .postgreSQL ? database : nil)
        #expect(Self.line(third, "store migrated") == nil && Self.line(third, "store created") == nil, "\(third.log.text)")
        await third.stop()
    }

    @Test("an entity and an attribute that held nothing are removed, and the log says so", arguments: StoreBackendKind.available)
    func removalsAreLogged(_ backend: StoreBackendKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let before = try directory.write(Self.withRemovable, to: "before.json")
        let after = try directory.write(Self.after, to: "after.json")
        let first = try await TestService.start(directory: directory.url, backend: backend, overrides: .init(modelPath: before))
        let database = first.databaseLocation
        _ = try await first.client.create("memos", #"{"text": "kept"}"#)
        await first.stop()

        let second = try await TestService.start(
            directory: directory.url, backend: backend, overrides: .init(modelPath: after),
            sharedDatabase: backend == .postgreSQL ? database : nil)
        let migrated = try #require(Self.line(second, "store migrated"), "no migration line: \(second.log.text)")
        let steps = try #require(migrated["steps"] as? String)
        #expect(steps.contains("entity Draft removed (its table held no rows)"), "\(steps)")
        #expect(steps.contains("Memo.legacy removed (no row held a value)"), "\(steps)")
        #expect(try await second.client.get("/memos/1").text.contains("kept"))
        await second.stop()
    }

    @Test("a removal that would lose data refuses the start, one reason a line", arguments: StoreBackendKind.available)
    func aRemovalWithDataRefusesTheStart(_ backend: StoreBackendKind) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let before = try directory.write(Self.withRemovable, to: "before.json")
        let after = try directory.write(Self.after, to: "after.json")
        let first = try await TestService.start(directory: directory.url, backend: backend, overrides: .init(modelPath: before))
        let database = first.databaseLocation
        _ = try await first.client.create("memos", #"{"text": "kept", "legacy": "old"}"#)
        _ = try await first.client.create("drafts", #"{"body": "unsent"}"#)
        _ = try await first.client.create("drafts", #"{"body": "another"}"#)
        await first.stop()

        let shared = backend == .postgreSQL ? database : nil
        await #expect {
            _ = try await TestService.start(directory: directory.url, backend: backend, overrides: .init(modelPath: after), sharedDatabase: shared)
        } throws: { error in
            "\(error)" == """
                model change refused:
                  - Memo.legacy: attribute was removed (or renamed without originalName), but 1 row holds a value
                  - entity Draft: removed, but its table holds 2 rows
                """
        }
        // Nothing changed: the old model opens the store as it was.
        let again = try await TestService.start(
            directory: directory.url, backend: backend, overrides: .init(modelPath: before), sharedDatabase: shared)
        #expect(Self.line(again, "store migrated") == nil, "\(again.log.text)")
        #expect(try await again.client.get("/drafts/2").text.contains("another"))
        await again.stop()
    }
}
