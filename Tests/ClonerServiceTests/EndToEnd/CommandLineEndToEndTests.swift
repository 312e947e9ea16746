import ClonerTestSupport
import Foundation
import Testing

/// `cloner check-model` and start-up failures of `cloner serve` (docs/architecture.md#configuration).
@Suite("End to end: command line")
struct CommandLineEndToEndTests {
    static let brokenModel = """
        { "entities": [
          { "name": "Note",
            "attributes": [ { "name": "when", "type": "date", "default": "not a date" } ],
            "relationships": [ { "name": "items", "destination": "Item", "toMany": true, "inverse": "owner" } ] },
          { "name": "Item",
            "attributes": [ { "name": "label", "type": "strng" } ],
            "relationships": [ { "name": "note", "destination": "Ghost", "inverse": "items" } ] }
        ] }
        """

    @Test("check-model: exit 0 and a summary on the sample model; exit 1 with every problem, naming entity and property, on a broken one")
    func checkModel() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let good = try await ServiceProcess.run(["check-model", ServiceProcess.sampleModelPath], in: directory.url)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains("valid"))
        #expect(good.stdout.contains("7 entities"))

        let path = try directory.write(Self.brokenModel, to: "broken.json")
        let bad = try await ServiceProcess.run(["check-model", path], in: directory.url)
        #expect(bad.status == 1)
        let problems = bad.stderr
        #expect(problems.contains("Note.when"), "\(problems)")
        #expect(problems.contains("Item.label"), "\(problems)")
        #expect(problems.contains("strng"), "\(problems)")
        #expect(problems.contains("Ghost"), "\(problems)")
        #expect(problems.contains("owner"), "\(problems)")
        #expect(problems.split(separator: "\n").count >= 4, "one line per problem: \(problems)")

        let missing = try await ServiceProcess.run(["check-model", directory.url.appendingPathComponent("absent.json").path], in: directory.url)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("absent.json"))
        let notJSON = try await ServiceProcess.run(["check-model", try directory.write("{ entities: ", to: "garbage.json")], in: directory.url)
        #expect(notJSON.status == 1)
        #expect(!notJSON.stderr.isEmpty)

        let help = try await ServiceProcess.run(["check-model", "--help"], in: directory.url)
        #expect(help.status == 0)
        #expect(help.stdout.contains("check-model"))
        #expect(help.stdout.contains("--rule-key"))

        // Renamed rule keys: a known name is taken, an unknown one or a malformed entry is a
        // usage error (64) naming the entry.
        let renamed = try await ServiceProcess.run(["check-model", ServiceProcess.sampleModelPath, "--rule-key", "exclude=skip"], in: directory.url)
        #expect(renamed.status == 0, "\(renamed.stderr)")
        for entry in ["bogus=skip", "exclude"] {
            let refused = try await ServiceProcess.run(["check-model", ServiceProcess.sampleModelPath, "--rule-key", entry], in: directory.url)
            #expect(refused.status == 64)
            #expect(refused.stderr.contains("--rule-key") && refused.stderr.contains(entry.split(separator: "=")[0]), "\(refused.stderr)")
        }
    }

    @Test("serve refuses to start on a broken model or a bad setting, before listening, with a non-zero exit")
    func serveRefusesBadStart() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try directory.write(Self.brokenModel, to: "broken.json")
        let database = directory.url.appendingPathComponent("db.sqlite").path
        let broken = try await ServiceProcess.run(["serve", "--port", "0", "--model", model, "--database", database], in: directory.url)
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("Ghost"))
        #expect(!broken.stdout.contains("\"listening\""))

        let badPort = try await ServiceProcess.run(
            ["serve", "--database", database, "--model", ServiceProcess.sampleModelPath],
            in: directory.url, environment: ["CLONER_PORT": "eighty"])
        #expect(badPort.status == 2)
        #expect(badPort.stderr.contains("CLONER_PORT"))
        let badKey = try await ServiceProcess.run(
            ["serve", "--port", "0", "--database", database, "--model", ServiceProcess.sampleModelPath],
            in: directory.url, environment: ["CLONER_API_KEYS": "sha256:abc"])
        #expect(badKey.status == 2)
        #expect(badKey.stderr.contains("CLONER_API_KEYS"))
        // Present but holding no key: the start stops rather than serving without authentication.
        let noKey = try await ServiceProcess.run(
            ["serve", "--port", "0", "--database", database, "--model", ServiceProcess.sampleModelPath],
            in: directory.url, environment: ["CLONER_API_KEYS": " , "])
        #expect(noKey.status == 2)
        #expect(noKey.stderr.contains("CLONER_API_KEYS") && noKey.stderr.contains("holds no key"), "\(noKey.stderr)")
        #expect(!noKey.stdout.contains("\"listening\""))
    }
}
