import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// The record routes (docs/architecture.md#routes) against the real `cloner` binary over real sockets.
@Suite("Service: records")
struct RecordsServiceTests {
    typealias F = EndToEndFixture

    @Test(
        "a to-many past 1000 links lists the first 1000 inline and says in _lists how many and where they all are",
        arguments: StoreBackendKind.available)
    func longListsAreCutWithAPointer(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let items = (0..<1005).map { #"{"name":"i\#($0)"}"# }.joined(separator: ",")
            let tags = (0..<1001).map { #"{"name":"t\#($0)"}"# }.joined(separator: ",")
            let note = try await client.create("notes", F.note(#""items":[\#(items)],"memos":[{"createDate":"\#(F.date)","tags":[\#(tags)]}]"#))
            let noteID = try #require(F.int(note["_id"]))
            for record in [
                note, try await client.get("/notes/\(noteID)").json(),
                try #require((try await client.get("/notes").json()["data"] as? [[String: Any]])?.first),
            ] {
                #expect(F.ints(record["items"])?.count == 1000)
                let lists = try #require(record["_lists"] as? [String: [String: Any]], "\(record.keys)")
                #expect(F.int(lists["items"]?["count"]) == 1005)
                #expect(F.int(lists["items"]?["inline"]) == 1000)
                #expect(lists["items"]?["all"] as? String == "/items?note=\(noteID)")
                #expect(lists["memos"] == nil, "a short list has no entry")
            }
            // The inline ids are the list's first 1000, in its order; `all` pages through every one.
            let inline = try #require(F.ints(note["items"]))
            var all: [Int] = []
            var next: String? = "/items?note=\(noteID)&limit=1000"
            while let page = next {
                let body = try await client.get(page).json()
                all += ((body["data"] as? [[String: Any]]) ?? []).compactMap { F.int($0["_id"]) }
                next = body["next"] as? String
            }
            #expect(all.count == 1005)
            #expect(Set(inline).isSubset(of: Set(all)))
            let names = try await client.get("/items/\(inline[999])").json()["name"] as? String
            #expect(names == "i999", "inline ids keep the list's order")
            // A many-to-many has no filter to page by: `all` is null.
            let memoID = try #require(F.ints(note["memos"])?.first)
            let memo = try await client.get("/memos/\(memoID)").json()
            #expect(F.ints(memo["tags"])?.count == 1000)
            let memoLists = try #require(memo["_lists"] as? [String: [String: Any]])
            #expect(F.int(memoLists["tags"]?["count"]) == 1001)
            #expect(memoLists["tags"]?["all"] is NSNull)
            // Sending a cut record back as a PATCH is refused, so it cannot drop the links it does not list.
            let patch = try await client.patch("/notes/\(noteID)", String(decoding: try JSONSerialization.data(withJSONObject: note), as: UTF8.self))
            #expect(patch.status == 422, "\(patch.text.prefix(300))")
            #expect(try await service.count("Item", where: "note = \(noteID)") == 1005)
        }
    }

    @Test("POST with nested objects creates the graph in one go: 201, Location, ETag; GET answers the same record", arguments: StoreBackendKind.available)
    func createNestedAndRead(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let created = try await client.post("/notes", F.richNote(name: "groceries", tag: "home"))
            #expect(created.status == 201)
            let note = try created.json()
            let id = try #require(F.int(note["_id"]))
            #expect(created.header("Location") == "/notes/\(id)")
            #expect(created.header("ETag") == "\"1\"")
            #expect(created.header("Content-Type")?.hasPrefix("application/json") == true)
            #expect(note["_entity"] as? String == "Note")
            #expect(F.int(note["_version"]) == 1)
            #expect(note["name"] as? String == "groceries")
            #expect(note["createDate"] as? String == F.date)
            #expect(F.int(note["index"]) == 0, "default filled in")
            #expect((note["settings"] as? [String: Any])?["theme"] as? String == "system", "json default filled in")
            let items = try #require(F.ints(note["items"]))
            #expect(items.count == 2)

            // Every nested object exists and points back (inverse set by the service).
            let first = try await client.get("/items/\(items[0])").json()
            #expect(first["name"] as? String == "first")
            #expect(F.int(first["note"]) == id)
            let data = try #require(F.ints(first["itemDatas"]))
            #expect(data.count == 1)
            let itemData = try await client.get("/itemdata/\(data[0])").json()
            #expect(itemData["value"] as? Double == 1.5)
            #expect(F.int(itemData["item"]) == items[0])
            let second = try await client.get("/items/\(items[1])").json()
            #expect(second["name"] as? String == "second")
            let descriptionID = try #require(F.int(note["noteDescription"]))
            #expect(try await client.get("/descriptions/\(descriptionID)").json()["content"] as? String == "about groceries")
            let memoID = try #require(F.ints(note["memos"])?.first)
            let memo = try await client.get("/memos/\(memoID)").json()
            let tagID = try #require(F.ints(memo["tags"])?.first)
            #expect(F.ints(try await client.get("/tags/\(tagID)").json()["memos"]) == [memoID])
            #expect(try await service.count("Item") == 2)
            #expect(try await service.count("_rel_Memo_tags") == 1)

            // Read: same record, ETag is the version; If-None-Match with it → 304, another → 200.
            let read = try await client.get("/notes/\(id)")
            #expect(read.status == 200)
            #expect(read.header("ETag") == "\"1\"")
            #expect(try read.json()["name"] as? String == "groceries")
            #expect(F.ints(try read.json()["items"]) == items)
            let notModified = try await client.get("/notes/\(id)", headers: [("If-None-Match", "\"1\"")])
            #expect(notModified.status == 304)
            #expect(notModified.body.isEmpty)
            #expect(notModified.header("ETag") == "\"1\"")
            #expect(try await client.get("/notes/\(id)", headers: [("If-None-Match", "\"7\"")]).status == 200)
            #expect(try await client.get("/notes/\(id)", headers: [("If-None-Match", "\"7\", W/\"1\"")]).status == 304)
            #expect(try await client.get("/notes/\(id)", headers: [("If-None-Match", "*")]).status == 304)
            let head = try await client.request("HEAD", "/notes/\(id)")
            #expect(head.status == 200)
            #expect(head.header("ETag") == "\"1\"")
            #expect(head.body.isEmpty)

            // Unknown ids and collections are 404 problems.
            let missing = try await client.get("/notes/999999")
            #expect(missing.status == 404)
            #expect(try missing.json()["code"] as? String == "not_found")
            #expect(try await client.get("/notes/abc").status == 404)
            #expect(try await client.get("/unicorns").status == 404)
            #expect(try await client.get("/unicorns/1").status == 404)
        }
    }

    @Test("POST links by _id and keeps the inverse; every invalid body is a 4xx naming the field and writes nothing", arguments: StoreBackendKind.available)
    func createLinksAndRejections(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let tag = try await client.create("tags", #"{"name":"urgent","color":"red"}"#)
            let tagID = try #require(F.int(tag["_id"]))
            let note = try await client.create("notes", F.note(#""name":"host""#))
            let noteID = try #require(F.int(note["_id"]))

            // Links by _id, both directions visible.
            let memo = try await client.create("memos", #"{"text":"linked","createDate":"\#(F.date)","note":\#(noteID),"tags":[\#(tagID)]}"#)
            let memoID = try #require(F.int(memo["_id"]))
            #expect(F.ints(try await client.get("/tags/\(tagID)").json()["memos"]) == [memoID])
            #expect(F.ints(try await client.get("/notes/\(noteID)").json()["memos"]) == [memoID])

            let notesBefore = try await service.count("Note")
            let memosBefore = try await service.count("Memo")
            func expectInvalid(_ body: String, field: String, collection: String = "notes", sourceLocation: SourceLocation = #_sourceLocation) async throws {
                let response = try await client.post("/\(collection)", body)
                #expect(response.status == 422, "\(body) → \(response.text)", sourceLocation: sourceLocation)
                let problem = try response.json()
                #expect(problem["code"] as? String == "validation_failed", sourceLocation: sourceLocation)
                #expect(F.errorFields(problem).contains(field), "expected field \(field) in \(response.text)", sourceLocation: sourceLocation)
            }
            try await expectInvalid(F.note(#""index":"seven""#), field: "index")
            try await expectInvalid(F.note(#""isPinned":1"#), field: "isPinned")
            try await expectInvalid(#"{"id":"not-a-uuid","createDate":"\#(F.date)"}"#, field: "id")
            try await expectInvalid(#"{"id":"\#(F.uuid())","createDate":"yesterday"}"#, field: "createDate")
            try await expectInvalid(F.note(#""colour":"blue""#), field: "colour")
            try await expectInvalid(#"{"createDate":"\#(F.date)"}"#, field: "id")
            try await expectInvalid(F.note(#""template":987654"#), field: "template")
            try await expectInvalid(#"{"text":"x","createDate":"\#(F.date)","tags":[\#(tagID), 987654]}"#, field: "tags[1]", collection: "memos")
            try await expectInvalid(F.note(#""items":[{"name":"ok"},{"name":7}]"#), field: "items[1].name")
            try await expectInvalid(F.note(#""_version":3"#), field: "_version")
            try await expectInvalid(#"{"image":"AAEC"}"#, field: "memo", collection: "attachments")
            try await expectInvalid(#"{"image":"not base64!","memo":\#(memoID)}"#, field: "image", collection: "attachments")
            try await expectInvalid(F.note(#""index":1.5"#), field: "index")

            let malformed = try await client.post("/notes", #"{"id": "#)
            #expect(malformed.status == 400)
            #expect(try malformed.json()["code"] as? String == "invalid_json")
            let notJSON = try await client.post("/notes", "name=x", headers: [("Content-Type", "application/x-www-form-urlencoded")])
            #expect(notJSON.status == 415)
            #expect(notJSON.header("Content-Type")?.hasPrefix("application/problem+json") == true)

            // A unique attribute hit is a 409 conflict naming the attribute.
            let duplicate = try await client.post("/tags", #"{"name":"urgent"}"#)
            #expect(duplicate.status == 409)
            let conflict = try duplicate.json()
            #expect(conflict["code"] as? String == "conflict")
            #expect(duplicate.text.contains("name"))

            #expect(try await service.count("Note") == notesBefore, "nothing half-written")
            #expect(try await service.count("Memo") == memosBefore)
            #expect(try await service.count("Item") == 0)
            #expect(try await service.count("Tag") == 1)
        }
    }

    @Test("GET list: limit, after cursor with next, order, equality filters; bad parameters are 422 naming them", arguments: StoreBackendKind.available)
    func listing(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let names = ["delta", "alpha", "echo", "charlie", "bravo"]
            var ids: [Int] = []
            for (index, name) in names.enumerated() {
                let tag = try await client.create("tags", #"{"name":"\#(name)","color":\#(index % 2 == 0 ? "\"red\"" : "null")}"#)
                ids.append(try #require(F.int(tag["_id"])))
            }

            let all = try await client.get("/tags").json()
            #expect((all["data"] as? [[String: Any]])?.compactMap { F.int($0["_id"]) } == ids, "default order is _id")
            #expect(all["next"] is NSNull)

            // Walk the pages with the server's `next` link; every record once, in order.
            var seen: [Int] = []
            var path: String? = "/tags?limit=2"
            var pages = 0
            while let current = path, pages < 10 {
                let page = try await client.get(current)
                #expect(page.status == 200)
                let body = try page.json()
                let data = try #require(body["data"] as? [[String: Any]])
                #expect(data.count <= 2)
                seen += data.compactMap { F.int($0["_id"]) }
                path = body["next"] as? String
                if let next = path { #expect(next.contains("limit=2") && next.contains("cursor=")) }
                pages += 1
            }
            #expect(seen == ids)
            #expect(pages == 3)
            let after = try await client.get("/tags?after=\(ids[2])").json()
            #expect((after["data"] as? [[String: Any]])?.compactMap { F.int($0["_id"]) } == Array(ids[3...]))

            let ordered = try await client.get("/tags?order=-name").json()
            #expect((ordered["data"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == names.sorted(by: >))
            let byColor = try await client.get("/tags?order=-color,name").json()
            #expect((byColor["data"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["bravo", "delta", "echo", "alpha", "charlie"])
            // The cursor follows a custom order too (keyset on the sort key, then _id).
            var orderedNames: [String] = []
            var orderedPath: String? = "/tags?order=-color,name&limit=2"
            for _ in 0..<10 {
                guard let current = orderedPath else { break }
                let page = try await client.get(current).json()
                orderedNames += ((page["data"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
                orderedPath = page["next"] as? String
            }
            #expect(orderedNames == ["bravo", "delta", "echo", "alpha", "charlie"])

            let filtered = try await client.get("/tags?name=echo").json()
            #expect((filtered["data"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["echo"])
            let red = try await client.get("/tags?color=red&order=name").json()
            #expect((red["data"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["bravo", "delta", "echo"])
            let spaced = try await client.create("tags", #"{"name":"two words & more"}"#)
            let encoded = try await client.get("/tags?name=two%20words%20%26%20more").json()
            #expect((encoded["data"] as? [[String: Any]])?.compactMap { F.int($0["_id"]) } == [F.int(spaced["_id"])].compactMap { $0 })

            // Filters by a to-one relationship's _id.
            let note = try await client.create("notes", F.note(#""items":[{"name":"a"},{"name":"b"}]"#))
            let noteID = try #require(F.int(note["_id"]))
            _ = try await client.create("items", #"{"name":"loose"}"#)
            let items = try await client.get("/items?note=\(noteID)").json()
            #expect((items["data"] as? [[String: Any]])?.count == 2)
            let loose = try await client.get("/items?note=null").json()
            #expect((loose["data"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["loose"])

            for (query, field) in [
                ("limit=0", "limit"), ("limit=1001", "limit"), ("limit=ten", "limit"), ("after=-3", "after"),
                ("order=name&after=424242", "after"), ("limit=2&limit=3", "limit"), ("order=nope", "order"), ("flavour=salty", "flavour"), ("memos=1", "memos"),
            ] {
                let response = try await client.get("/tags?\(query)")
                #expect(response.status == 422, "\(query)")
                let problem = try response.json()
                #expect(problem["code"] as? String == "validation_failed")
                #expect(F.errorFields(problem).contains(field), "\(query) → \(response.text)")
            }
            let notes = try await client.get("/notes?index=abc")
            #expect(notes.status == 422)
            #expect(F.errorFields(try notes.json()) == ["index"])
        }
    }

    @Test(
        "PATCH: If-Match mismatch is 412 and changes nothing; partial update bumps the version; moving an item updates both notes",
        arguments: StoreBackendKind.available)
    func partialUpdate(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let first = try await client.create("notes", F.note(#""name":"first","index":3,"items":[{"name":"a"},{"name":"b"}]"#))
            let second = try await client.create("notes", F.note(#""name":"second","items":[{"name":"c"}]"#))
            let firstID = try #require(F.int(first["_id"])), secondID = try #require(F.int(second["_id"]))
            let firstItems = try #require(F.ints(first["items"])), secondItems = try #require(F.ints(second["items"]))

            let stale = try await client.patch("/notes/\(firstID)", #"{"name":"renamed"}"#, headers: [("If-Match", "\"9\"")])
            #expect(stale.status == 412)
            #expect(try stale.json()["code"] as? String == "precondition_failed")
            #expect(try await client.get("/notes/\(firstID)").json()["name"] as? String == "first")

            #expect(
                try await client.patch("/notes/\(firstID)", #"{"name":"renamed"}"#, headers: [("If-Match", "W/\"1\"")]).status == 412,
                "If-Match compares strongly")
            let renamed = try await client.patch("/notes/\(firstID)", #"{"name":"renamed"}"#, headers: [("If-Match", "\"1\"")])
            #expect(renamed.status == 200)
            #expect(renamed.header("ETag") == "\"2\"")
            let record = try renamed.json()
            #expect(record["name"] as? String == "renamed")
            #expect(F.int(record["index"]) == 3, "untouched attributes keep their values")
            #expect(F.ints(record["items"]) == firstItems)
            #expect(F.int(record["_version"]) == 2)

            // Move item a to the second note: seen from both notes and from the item.
            let moved = try await client.patch("/items/\(firstItems[0])", #"{"note":\#(secondID)}"#)
            #expect(moved.status == 200)
            #expect(F.int(try moved.json()["note"]) == secondID)
            #expect(F.ints(try await client.get("/notes/\(firstID)").json()["items"]) == [firstItems[1]])
            #expect(F.ints(try await client.get("/notes/\(secondID)").json()["items"]) == secondItems + [firstItems[0]])

            // Setting the to-many side reorders and takes the item back.
            let reordered = try await client.patch("/notes/\(firstID)", #"{"items":[\#(firstItems[0]),\#(firstItems[1])]}"#)
            #expect(reordered.status == 200)
            #expect(F.ints(try reordered.json()["items"]) == [firstItems[0], firstItems[1]])
            #expect(F.int(try await client.get("/items/\(firstItems[0])").json()["note"]) == firstID)
            #expect(F.ints(try await client.get("/notes/\(secondID)").json()["items"]) == secondItems)

            // One-to-one: giving the second note the first one's description takes it away from the first.
            let withDescription = try await client.patch("/notes/\(firstID)", #"{"noteDescription":{"content":"mine"}}"#)
            let descriptionID = try #require(F.int(try withDescription.json()["noteDescription"]))
            #expect(try await client.patch("/notes/\(secondID)", #"{"noteDescription":\#(descriptionID)}"#).status == 200)
            #expect(try await client.get("/notes/\(firstID)").json()["noteDescription"] is NSNull)
            #expect(F.int(try await client.get("/descriptions/\(descriptionID)").json()["note"]) == secondID)

            // Many-to-many, set from either side.
            let red = try await client.createdID("tags", #"{"name":"red"}"#)
            let blue = try await client.createdID("tags", #"{"name":"blue"}"#)
            let memo = try await client.createdID("memos", #"{"createDate":"\#(F.date)","tags":[\#(red),\#(blue)]}"#)
            #expect(F.ints(try await client.get("/tags/\(blue)").json()["memos"]) == [memo])
            #expect(try await client.patch("/memos/\(memo)", #"{"tags":[\#(red)]}"#).status == 200)
            #expect(F.ints(try await client.get("/tags/\(blue)").json()["memos"]) == [])
            #expect(try await client.patch("/tags/\(blue)", #"{"memos":[\#(memo)]}"#).status == 200)
            #expect(Set(F.ints(try await client.get("/memos/\(memo)").json()["tags"]) ?? []) == [red, blue])

            // Invalid patches: 422 naming the field, unknown object 404, nothing changed.
            let badType = try await client.patch("/notes/\(firstID)", #"{"index":"x"}"#)
            #expect(badType.status == 422)
            #expect(F.errorFields(try badType.json()) == ["index"])
            let dangling = try await client.patch("/items/\(firstItems[1])", #"{"note":424242}"#)
            #expect(dangling.status == 422)
            #expect(F.errorFields(try dangling.json()) == ["note"])
            #expect(try await client.patch("/notes/424242", #"{"name":"x"}"#).status == 404)
            #expect(try await client.get("/notes/\(firstID)").json()["name"] as? String == "renamed")
        }
    }

    @Test("DELETE cascades through owned objects; a deny rule with related objects is 409 and deletes nothing", arguments: StoreBackendKind.available)
    func deletion(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            let note = try await client.create("notes", F.richNote(name: "doomed", tag: "keeper"))
            let noteID = try #require(F.int(note["_id"]))
            let memoID = try #require(F.ints(note["memos"])?.first)
            let tagID = try #require(F.ints(try await client.get("/memos/\(memoID)").json()["tags"])?.first)

            // The tag has a memo: deny.
            let denied = try await client.delete("/tags/\(tagID)")
            #expect(denied.status == 409)
            let problem = try denied.json()
            #expect(problem["code"] as? String == "conflict")
            #expect(denied.text.contains("memos"))
            #expect(try await client.get("/tags/\(tagID)").status == 200)

            #expect(try await client.delete("/notes/\(noteID)", headers: [("If-Match", "\"5\"")]).status == 412)
            let deleted = try await client.delete("/notes/\(noteID)")
            #expect(deleted.status == 204)
            #expect(try await client.get("/notes/\(noteID)").status == 404)
            for entity in ["Note", "Item", "ItemData", "Memo", "NoteDescription", "_rel_Memo_tags"] {
                #expect(try await service.count(entity) == 0, "\(entity) rows left after the cascade")
            }
            #expect(F.ints(try await client.get("/tags/\(tagID)").json()["memos"]) == [], "the shared tag stays, unlinked")
            #expect(try await client.delete("/tags/\(tagID)").status == 204, "no related memo any more")
            #expect(try await client.delete("/notes/\(noteID)").status == 404)
        }
    }
}
