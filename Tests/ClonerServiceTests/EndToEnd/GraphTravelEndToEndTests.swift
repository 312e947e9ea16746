import ClonerTestSupport
import ClonerServiceTestSupport
import Foundation
import Testing

/// `GET /{collection}/{id}/export`, `POST /{collection}/import` and `cloner export`/`import`
/// (docs/architecture.md#graphs-that-travel) against the real binary, on real stores.
@Suite("End to end: graphs that travel")
struct GraphTravelEndToEndTests {
    typealias F = EndToEndFixture

    static let crossings: [(StoreBackendKind, StoreBackendKind)] =
        PostgreSQLTestCluster.isEnabled ? [(.sqlite, .postgreSQL), (.postgreSQL, .sqlite)] : []

    @Test("export → import → export gives the first export again, up to ids and rebuilt values; the answer is a clone's", arguments: StoreBackendKind.available)
    func roundTrip(_ backend: StoreBackendKind) async throws {
        try await ServiceProcess.withService(backend: backend) { service in
            let client = service.client
            let original = try await client.create("notes", F.richNote(name: "trip", tag: "travel"))
            let originalID = try #require(F.int(original["_id"]))
            let exported = try await client.get("/notes/\(originalID)/export")
            #expect(exported.status == 200, "\(exported.text)")
            #expect(exported.header("Content-Type") == "application/vnd.cloner.graph+x-ndjson")
            #expect(exported.header("Transfer-Encoding") == "chunked")
            let document = try GraphDocument(exported.text)
            #expect(document.lines.first?["kind"] as? String == "header")
            #expect(document.lines.first?["format"] as? String == "cloner-graph")
            #expect(document.lines.last?["kind"] as? String == "end")
            #expect(F.int(document.lines.last?["objects"]) == 6)
            #expect(document.lines(kind: "reference").map { $0["entity"] as? String } == ["Tag"])
            #expect((document.lines(kind: "reference").first?["key"] as? [String: Any])?["name"] as? String == "travel")
            // Owners before what they own: every parent's line comes before its children's.
            var seen: Set<String> = []
            for line in document.lines(kind: "object") {
                if let parent = line["parent"] as? [String: Any] {
                    #expect(seen.contains("\(parent["entity"]!)/\(F.int(parent["ref"])!)"), "parent first: \(line)")
                }
                seen.insert("\(line["entity"]!)/\(F.int(line["ref"])!)")
            }

            let imported = try await client.importGraph("notes", exported.text, query: "returnIds=true")
            #expect(imported.status == 201, "\(imported.text)")
            let answer = try imported.json()
            let newID = try #require(F.int((answer["clone"] as? [String: Any])?["id"]))
            #expect(imported.header("Location") == "/notes/\(newID)")
            #expect(F.counts(answer["created"]) == ["Note": 1, "Item": 2, "ItemData": 1, "Memo": 1, "NoteDescription": 1])
            #expect(F.counts(answer["linked"]) == ["Tag": 1])
            #expect(F.int(((answer["ids"] as? [String: Any])?["Note"] as? [String: Any])?["\(originalID)"]) == newID)

            let copy = try await client.get("/notes/\(newID)").json()
            #expect(copy["id"] as? String != original["id"] as? String, "rebuild: uuid")
            #expect(copy["createDate"] as? String != F.date, "rebuild: now")
            let firstItem = try await client.get("/items/\(try #require(F.ints(copy["items"])?.first))").json()
            #expect(firstItem["name"] as? String == "first", "order kept")
            #expect(firstItem["noteID"] as? String == copy["id"] as? String, "followParent: the new root's rebuilt id")
            #expect(try await service.count("Tag") == 1, "the shared tag is linked, not copied")

            let again = try await client.get("/notes/\(newID)/export")
            #expect(try GraphDocument(again.text).normalized() == document.normalized())
        }
    }

    @Test(
        "one store to another: unmatched shared objects are a 422 listing each; dry run reports them; createMissing creates them; a second import links the same ones; and back",
        arguments: crossings)
    func acrossStores(_ backends: (StoreBackendKind, StoreBackendKind)) async throws {
        let (sourceBackend, targetBackend) = backends
        try await ServiceProcess.withService(backend: sourceBackend) { source in
            let template = try await source.client.create("notes", F.note(#""name":"template""#))
            let original = try await source.client.create("notes", F.richNote(name: "trip", tag: "travel"))
            let originalID = try #require(F.int(original["_id"]))
            #expect(try await source.client.patch("/notes/\(originalID)", #"{"template":\#(F.int(template["_id"])!)}"#).status == 200)
            let exported = try await source.client.get("/notes/\(originalID)/export").text

            try await ServiceProcess.withService(backend: targetBackend) { target in
                let refused = try await target.client.importGraph("notes", exported)
                #expect(refused.status == 422, "\(refused.text)")
                let fields = F.errorFields(try refused.json())
                #expect(fields.count == 2 && fields.contains { $0.hasPrefix("Tag ") } && fields.contains { $0.hasPrefix("Note ") }, "\(fields)")
                #expect(try await target.counts(["Note", "Item", "Tag"]) == [0, 0, 0], "nothing written")

                let dry = try await target.client.importGraph("notes", exported, query: "dryRun=true")
                #expect(dry.status == 200, "\(dry.text)")
                let dryAnswer = try dry.json()
                #expect((dryAnswer["conflicts"] as? [String])?.count == 2)
                #expect(F.counts(dryAnswer["created"])["Item"] == 2)
                #expect(try await target.counts(["Note", "Item", "Tag"]) == [0, 0, 0], "a dry run writes nothing")

                let created = try await target.client.importGraph("notes", exported, query: "createMissing=true")
                #expect(created.status == 201, "\(created.text)")
                #expect(F.counts(try created.json()["created"]) == ["Note": 2, "Item": 2, "ItemData": 1, "Memo": 1, "NoteDescription": 1, "Tag": 1])
                let second = try await target.client.importGraph("notes", exported)
                #expect(second.status == 201, "\(second.text)")
                #expect(F.counts(try second.json()["linked"]) == ["Tag": 1, "Note": 1], "found by natural key this time")
                #expect(try await target.counts(["Note", "Tag"]) == [3, 1], "both imports link the same tag and template")

                let secondID = try second.cloneID()
                let moved = try await target.client.get("/notes/\(secondID)/export").text
                #expect(try GraphDocument(moved).normalized() == GraphDocument(exported).normalized())

                // And back: the source holds the tag and the template, so everything links.
                let back = try await source.client.importGraph("notes", moved)
                #expect(back.status == 201, "\(back.text)")
                #expect(F.counts(try back.json()["linked"]) == ["Tag": 1, "Note": 1])
                let backID = try back.cloneID()
                let returned = try await source.client.get("/notes/\(backID)/export").text
                #expect(try GraphDocument(returned).normalized() == GraphDocument(exported).normalized())
            }
        }
    }

    @Test(
        "Idempotency-Key: a retried import answers the first answer and imports once; the key with another document is a 422",
        arguments: StoreBackendKind.available)
    func idempotentImport(_ backend: StoreBackendKind) async throws {
        try await ServiceProcess.withService(backend: backend) { service in
            let client = service.client
            let original = try await client.create("notes", F.richNote(name: "trip", tag: "travel"))
            let document = try await client.get("/notes/\(F.int(original["_id"])!)/export").text
            let key = [(name: "Idempotency-Key", value: "import-\(F.uuid())")]
            let first = try await client.importGraph("notes", document, query: "returnIds=true", headers: key)
            #expect(first.status == 201, "\(first.text)")
            let again = try await client.importGraph("notes", document, query: "returnIds=true", headers: key)
            #expect(again.status == 201)
            #expect(again.header("Idempotent-Replayed") == "true")
            #expect(again.text == first.text, "the first answer, byte for byte")
            #expect(again.header("Location") == first.header("Location"))
            #expect(try await service.count("Note") == 2, "imported once")
            let other = try await client.importGraph("notes", document, query: "dryRun=true", headers: key)
            #expect(other.status == 422, "\(other.text)")
            #expect(try other.json()["code"] as? String == "idempotency_key_reused")
            // A failed import gives its key back: the same key then imports.
            let failing = [(name: "Idempotency-Key", value: "import-\(F.uuid())")]
            let refused = try await client.importGraph(
                "notes", document.replacingOccurrences(of: #""name":"travel""#, with: #""name":"elsewhere""#),
                headers: failing)
            #expect(refused.status == 422, "\(refused.text)")
            let retried = try await client.importGraph(
                "notes", document.replacingOccurrences(of: #""name":"travel""#, with: #""name":"elsewhere""#),
                query: "createMissing=true", headers: failing)
            #expect(retried.status == 201, "the key of a failed import is free again: \(retried.text)")
        }
    }

    @Test("Prefer: respond-async answers 202 with a job that succeeds with the import's answer", arguments: StoreBackendKind.available)
    func asyncImport(_ backend: StoreBackendKind) async throws {
        try await ServiceProcess.withService(backend: backend) { service in
            let client = service.client
            let original = try await client.create("notes", F.richNote(name: "trip", tag: "travel"))
            let document = try await client.get("/notes/\(F.int(original["_id"])!)/export").text
            let accepted = try await client.importGraph("notes", document, headers: [("Prefer", "respond-async")])
            #expect(accepted.status == 202, "\(accepted.text)")
            let location = try #require(accepted.header("Location"))
            #expect(location.hasPrefix("/jobs/"))
            var job: [String: Any] = [:]
            for _ in 0..<600 {
                job = try await client.get(location).json()
                if job["status"] as? String == "succeeded" || job["status"] as? String == "failed" { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(job["status"] as? String == "succeeded", "\(job)")
            let result = try #require(job["result"] as? [String: Any])
            #expect(F.counts(result["created"]) == ["Note": 1, "Item": 2, "ItemData": 1, "Memo": 1, "NoteDescription": 1])
            #expect(try await service.count("Note") == 2)

            let failing = try await client.importGraph(
                "notes", document.replacingOccurrences(of: #""name":"travel""#, with: #""name":"elsewhere""#),
                headers: [("Prefer", "respond-async")])
            #expect(failing.status == 202)
            let failedLocation = try #require(failing.header("Location"))
            for _ in 0..<600 {
                job = try await client.get(failedLocation).json()
                if job["status"] as? String == "succeeded" || job["status"] as? String == "failed" { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(job["status"] as? String == "failed", "\(job)")
            #expect((job["error"] as? [String: Any])?["status"] as? Int == 422)
            #expect(try await service.count("Note") == 2, "the failed import wrote nothing")
        }
    }

    @Test("model differences: a missing or retyped property is a 422 naming each; originalName maps; properties the target adds take defaults")
    func modelDifferences() async throws {
        var exported = ""
        try await ServiceProcess.withService { source in
            let original = try await source.client.create("notes", F.richNote(name: "trip", tag: "travel"))
            exported = try await source.client.get("/notes/\(F.int(original["_id"])!)/export").text
        }
        var model = try String(contentsOfFile: ServiceProcess.sampleModelPath, encoding: .utf8)
        let index = #"{ "name": "index",      "type": "integer", "default": 0 },"#
        let itemName = #"{ "name": "name",   "type": "string", "optional": true },"#
        #expect(model.contains(index) && model.contains(itemName))
        model = model.replacingOccurrences(of: index, with: "")
            .replacingOccurrences(
                of: itemName, with: #"{ "name": "name",   "type": "integer", "optional": true }, { "name": "rank", "type": "integer", "default": 7 },"#)
        try await ServiceProcess.withService(modelText: model) { target in
            let refused = try await target.client.importGraph("notes", exported)
            #expect(refused.status == 422, "\(refused.text)")
            #expect(Set(F.errorFields(try refused.json())) == ["Note.index", "Item.name"])
            #expect(try await target.count("Note") == 0)
        }
        // A document written before Memo.text was renamed from `body` still imports into `text`.
        let renamed = exported.replacingOccurrences(of: #""text":"#, with: #""body":"#)
        #expect(renamed != exported)
        try await ServiceProcess.withService { target in
            let imported = try await target.client.importGraph("notes", renamed, query: "createMissing=true")
            #expect(imported.status == 201, "\(imported.text)")
            let note = try await target.client.get("/notes/\(F.int((try imported.json()["clone"] as? [String: Any])?["id"])!)").json()
            let memo = try await target.client.get("/memos/\(F.ints(note["memos"])![0])").json()
            #expect(memo["text"] as? String == "memo")
        }
        // A document without Note.index (an older model): the target's default.
        let withoutIndex = exported.replacingOccurrences(of: #""index":"integer","#, with: "").replacingOccurrences(of: #""index":0,"#, with: "")
        #expect(withoutIndex != exported)
        try await ServiceProcess.withService { target in
            let imported = try await target.client.importGraph("notes", withoutIndex, query: "createMissing=true")
            #expect(imported.status == 201, "\(imported.text)")
            let note = try await target.client.get("/notes/\(F.int((try imported.json()["clone"] as? [String: Any])?["id"])!)").json()
            #expect(F.int(note["index"]) == 0)
        }
    }

    @Test("bad documents name the line and field and write nothing")
    func badLines() async throws {
        try await ServiceProcess.withService { service in
            let client = service.client
            let original = try await client.create("notes", F.richNote(name: "trip", tag: "travel"))
            let text = try await client.get("/notes/\(F.int(original["_id"])!)/export").text
            var lines = text.split(separator: "\n").map(String.init)
            let itemLine = try #require(lines.firstIndex { $0.contains(#""entity":"Item""#) && $0.contains(#""kind":"object""#) })

            func refused(_ document: String, _ status: Int, field: String, contentType: String? = nil) async throws {
                let answer: ClientResponse
                if let contentType {
                    answer = try await client.request("POST", "/notes/import", headers: [("Content-Type", contentType)], body: document)
                } else {
                    answer = try await client.importGraph("notes", document)
                }
                #expect(answer.status == status, "\(answer.text)")
                if !field.isEmpty { #expect(try answer.json()["field"] as? String == field, "\(answer.text)") }
                #expect(try await service.counts(["Note", "Item", "Tag"]) == [1, 2, 1], "nothing written")
            }
            var broken = lines
            broken[2] = "{not json"
            try await refused(broken.joined(separator: "\n"), 400, field: "line 3")
            broken = lines
            broken[itemLine] = broken[itemLine].replacingOccurrences(of: #""name":"first""#, with: #""name":5"#)
                .replacingOccurrences(of: #""name":"second""#, with: #""name":5"#)
            try await refused(broken.joined(separator: "\n"), 422, field: "line \(itemLine + 1).attributes.name")
            try await refused(lines.dropLast().joined(separator: "\n"), 400, field: "line \(lines.count)")
            broken = lines
            broken[itemLine] = broken[itemLine].replacingOccurrences(of: #""itemDatas":["#, with: #""itemDatas":[999,"#)
                .replacingOccurrences(of: #""itemDatas":[999,]"#, with: #""itemDatas":[999]"#)
            try await refused(broken.joined(separator: "\n"), 422, field: "line \(itemLine + 1).relationships.itemDatas")
            lines.insert(lines[itemLine], at: itemLine + 1)
            try await refused(lines.joined(separator: "\n"), 422, field: "line \(itemLine + 2).ref")
            try await refused(text, 415, field: "", contentType: "application/json")
            try await refused(text.replacingOccurrences(of: #""root":{"entity":"Note""#, with: #""root":{"entity":"Item""#), 422, field: "root")
        }
    }

    @Test("export honours exclude, answers 404 for a missing root and 422 for an exclude naming nothing")
    func exportOptions() async throws {
        try await ServiceProcess.withService { service in
            let client = service.client
            let original = try await client.create("notes", F.richNote(name: "trip", tag: "travel"))
            let id = try #require(F.int(original["_id"]))
            let without = try GraphDocument(try await client.get("/notes/\(id)/export?exclude=items,Memo.tags").text)
            #expect(without.lines(kind: "object").allSatisfy { $0["entity"] as? String != "Item" && $0["entity"] as? String != "ItemData" })
            #expect(without.lines(kind: "reference").isEmpty, "Memo.tags excluded: no tag referenced")
            #expect((without.lines(kind: "object").first?["relationships"] as? [String: Any])?["items"] == nil)
            #expect(try await client.get("/notes/999/export").status == 404)
            let bad = try await client.get("/notes/\(id)/export?exclude=nothing")
            #expect(bad.status == 422, "\(bad.text)")
            #expect(try bad.json()["field"] as? String == "exclude[0]")
        }
    }

    @Test("cloner export and cloner import work straight on stores, through files")
    func commandLine() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let source = directory.url.appendingPathComponent("source.sqlite").path
        let target = directory.url.appendingPathComponent("target.sqlite").path
        let document = directory.url.appendingPathComponent("note.ndjson").path
        var exported = ""
        try await ServiceProcess.withService(arguments: ["--database", source]) { service in
            let original = try await service.client.create("notes", F.richNote(name: "trip", tag: "travel"))
            exported = try await service.client.get("/notes/\(F.int(original["_id"])!)/export").text
            await service.stopAndWait()
            let model = ServiceProcess.sampleModelPath
            let export = try await ServiceProcess.run(
                [
                    "export", "--database", source, "--model", model, "notes", "\(F.int(original["_id"])!)",
                    "--output", document,
                ], in: directory.url)
            #expect(export.status == 0, "\(export.stderr)")
            #expect(export.stderr.contains("exported 6 objects and 1 references"))
            #expect(try String(contentsOfFile: document, encoding: .utf8) == exported, "the command writes what the route answers")

            // A named pipe stays a pipe, and the document goes through it to its reader: the file
            // is written in place, as a shell's `>` writes it (a new file renamed over the path
            // once replaced /dev/null with an ordinary file).
            let pipe = directory.url.appendingPathComponent("note.pipe").path
            #expect(mkfifo(pipe, 0o600) == 0)
            // Held open for reading and writing until the export has run, so the reader never
            // waits for a writer that does not come: it sees the end once this and the export's
            // descriptor are closed, with or without the document.
            let keeper = open(pipe, O_RDWR | O_CLOEXEC)
            #expect(keeper >= 0)
            // Read to the end of the stream (`String(contentsOfFile:)` takes a pipe's size, 0).
            async let piped = Blocking.run { () -> String in
                guard let reader = FileHandle(forReadingAtPath: pipe) else { throw ClientError("cannot open \(pipe)") }
                return String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
            }
            let throughPipe = try await ServiceProcess.run(
                ["export", "--database", source, "--model", model, "notes", "\(F.int(original["_id"])!)", "--output", pipe],
                in: directory.url)
            var status = stat()
            #expect(lstat(pipe, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the pipe is still a pipe")
            close(keeper)
            #expect(throughPipe.status == 0, "\(throughPipe.stderr)")
            #expect(try await piped == exported)
            let refused = try await ServiceProcess.run(["import", "--database", target, "--model", model, "notes", "--input", document], in: directory.url)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("no Tag with name = \"travel\""), "\(refused.stderr)")
            let imported = try await ServiceProcess.run(
                [
                    "import", "--database", target, "--model", model, "notes", "--input", document,
                    "--create-missing",
                ], in: directory.url)
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stdout.contains(#""created":{"Item":2,"ItemData":1,"Memo":1,"Note":1,"NoteDescription":1,"Tag":1}"#), "\(imported.stdout)")
        }
    }
}
