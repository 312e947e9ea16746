import Foundation
import OpenAPIRuntime

/// A walk through Cloner's API as the backend of a notes app makes it, with nothing but the
/// generated client: create a note with its items and description in one request, read it, read
/// it again conditionally, update it only if unchanged, clone it (ids, copies, dry run, idempotent
/// retry, as a job), page through the notes, and meet the errors an app must handle. Every step
/// checks the answer's status, headers and body and throws at the first that is not as expected.
@MainActor final class MobileWalk {
    let api: Client
    let readOnly: Client
    let anonymous: Client
    private(set) var steps: [String] = []

    init(api: Client, readOnly: Client, anonymous: Client) {
        self.api = api
        self.readOnly = readOnly
        self.anonymous = anonymous
    }

    struct Unexpected: Error, CustomStringConvertible {
        var description: String
    }

    func run() async throws {
        try await authentication()
        let note = try await createNoteWithNestedObjects()
        let etag = try await readAndReadConditionally(note)
        let updated = try await updateConditionally(note, etag: etag)
        try await cloneWithIDs(updated)
        try await cloneCopies(updated)
        try await dryRun(updated)
        try await idempotentRetry(updated)
        try await cloneAsJob(updated)
        try await listWithCursor()
        try await problemDetails()
    }

    // MARK: Steps

    /// No key: 401 with `WWW-Authenticate: Bearer`; a read-only key writing: 403. Both are problem
    /// details with a stable `code` and the request's id.
    func authentication() async throws {
        switch try await anonymous.getModel() {
        case .unauthorized(let answer):
            let problem = try answer.body.applicationProblemJson
            try expect(answer.headers.wwwAuthenticate == .bearer, "WWW-Authenticate is Bearer")
            try expect(problem.code == "unauthorized" && problem.status == 401, "401 problem code unauthorized, got \(problem.code)")
            try expect(problem.requestId == answer.headers.xRequestID, "problem requestId is the X-Request-ID")
        case let other: throw unexpected("GET /model without a key", other)
        }
        switch try await readOnly.createNote(body: .json(.init(createDate: Date(), id: UUID().uuidString))) {
        case .forbidden(let answer):
            try expect(try answer.body.applicationProblemJson.code == "forbidden", "403 problem code forbidden")
        case let other: throw unexpected("POST /notes with a read-only key", other)
        }
        switch try await readOnly.getModel() {
        case .ok(let answer):
            try expect(try answer.body.json.entities.contains { $0.name == "Note" }, "the model has Note")
        case let other: throw unexpected("GET /model with a read-only key", other)
        }
        step("auth: 401 without a key, 403 for a read-only key writing, 200 for it reading")
    }

    /// One POST creates the note, two items (one with a data point) and its description. The
    /// request id carries `: / + =`, which the runtime percent-encodes and the service reads back.
    func createNoteWithNestedObjects() async throws -> Components.Schemas.NoteRecord {
        let requestID = "walk:create/1+a=b"
        let created = Date()
        let body = Components.Schemas.NoteCreate(
            createDate: created, id: UUID().uuidString, index: 1, isPinned: false,
            items: [
                .ItemCreate(.init(itemDatas: [.ItemDataCreate(.init(createDate: created, value: 4.5))], name: "Milk")),
                .ItemCreate(.init(name: "Eggs")),
            ],
            name: "Groceries",
            noteDescription: .NoteDescriptionCreate(.init(content: "for the weekend")),
            settings: try OpenAPIValueContainer(unvalidatedValue: ["color": "green", "reminders": [9, 18] as [any Sendable]] as [String: any Sendable]),
            shareLink: "https://example.com/s/groceries")
        switch try await api.createNote(headers: .init(xRequestID: requestID), body: .json(body)) {
        case .created(let answer):
            let note = try answer.body.json
            try expect(answer.headers.xRequestID == requestID, "X-Request-ID echoed, got \(answer.headers.xRequestID)")
            try expect(answer.headers.location == "/notes/\(note._id)", "Location names the note")
            try expect(answer.headers.eTag == "\"\(note._version)\"", "ETag is the version")
            try expect(note.items.count == 2 && note.noteDescription != nil, "nested items and description created")
            try expect(abs(note.createDate.timeIntervalSince(created)) < 0.002, "createDate round-trips to the millisecond")
            try expect(note.shareLink == "https://example.com/s/groceries" && note.name == "Groceries", "attributes stored")
            step("create: note \(note._id) with \(note.items.count) items and a description in one request")
            return note
        case let other: throw unexpected("POST /notes", other)
        }
    }

    /// A plain read gives the ETag; the same read with `If-None-Match` is a 304 without a body.
    func readAndReadConditionally(_ note: Components.Schemas.NoteRecord) async throws -> String {
        let etag: String
        switch try await api.getNote(path: .init(id: note._id)) {
        case .ok(let answer):
            etag = answer.headers.eTag
            try expect(try answer.body.json._id == note._id, "read the note")
        case let other: throw unexpected("GET /notes/\(note._id)", other)
        }
        switch try await api.getNote(path: .init(id: note._id), headers: .init(ifNoneMatch: etag)) {
        case .notModified(let answer):
            try expect(answer.headers.eTag == etag, "304 carries the same ETag")
        case let other: throw unexpected("GET /notes/\(note._id) with If-None-Match: \(etag)", other)
        }
        step("read: ETag \(etag), and 304 for If-None-Match: \(etag)")
        return etag
    }

    /// `If-Match` with the current ETag updates (and clears `shareLink` with an explicit null);
    /// the same stale ETag afterwards is a 412 that changes nothing.
    func updateConditionally(_ note: Components.Schemas.NoteRecord, etag: String) async throws -> Components.Schemas.NoteRecord {
        let change = Components.Schemas.NoteUpdate(name: .case1("Groceries (Saturday)"), shareLink: .case1(nil))
        let updated: Components.Schemas.NoteRecord
        switch try await api.updateNote(path: .init(id: note._id), headers: .init(ifMatch: etag), body: .json(change)) {
        case .ok(let answer):
            updated = try answer.body.json
            try expect(updated.name == "Groceries (Saturday)", "name updated")
            try expect(updated.shareLink == nil, "shareLink cleared by null")
            try expect(updated._version == note._version + 1 && answer.headers.eTag == "\"\(updated._version)\"", "version bumped")
        case let other: throw unexpected("PATCH /notes/\(note._id) with If-Match: \(etag)", other)
        }
        switch try await api.updateNote(path: .init(id: note._id), headers: .init(ifMatch: etag), body: .json(.init(index: 7))) {
        case .preconditionFailed(let answer):
            try expect(try answer.body.applicationProblemJson.code == "precondition_failed", "412 problem code")
        case let other: throw unexpected("PATCH /notes/\(note._id) with the stale If-Match: \(etag)", other)
        }
        step("update: If-Match \(etag) → version \(updated._version), shareLink cleared; stale If-Match → 412")
        return updated
    }

    /// A deep clone returning the old → new id map of every entity it copied.
    func cloneWithIDs(_ note: Components.Schemas.NoteRecord) async throws {
        let request = Components.Schemas.NoteCloneRequest(returnIds: true, set: .init(name: .case1("Groceries, again")))
        switch try await api.cloneNote(path: .init(id: note._id), body: .json(request)) {
        case .created(let answer):
            let result = try answer.body.json
            let clone = try require(result.clone, "clone present")
            try expect(answer.headers.location == "/notes/\(clone.id)", "Location is the new root")
            try expect(result.created.additionalProperties["Note"] == 1 && result.created.additionalProperties["Item"] == 2, "counts: \(result.created.additionalProperties)")
            guard case .IDMap(let ids)? = result.ids else { throw Unexpected(description: "ids missing or a list: \(String(describing: result.ids))") }
            let noteIDs = try require(ids.additionalProperties["Note"], "ids.Note")
            try expect(noteIDs.additionalProperties["\(note._id)"] == clone.id, "ids map the note to its clone")
            try expect(result.dryRun == false, "not a dry run")
            step("clone: note \(note._id) → \(clone.id), ids for \(ids.additionalProperties.keys.sorted())")
        case let other: throw unexpected("POST /notes/\(note._id)/clone returnIds", other)
        }
    }

    /// Three full copies in one transaction.
    func cloneCopies(_ note: Components.Schemas.NoteRecord) async throws {
        switch try await api.cloneNote(path: .init(id: note._id), body: .json(.init(copies: .case1(3)))) {
        case .created(let answer):
            let result = try answer.body.json
            let clones = try require(result.clones, "clones present")
            try expect(clones.count == 3 && result.clone?.id == clones.first?.id, "three copies, clone is the first")
            try expect(result.created.additionalProperties["Note"] == 3, "three notes made")
            step("copies: 3 clones \(clones.map(\.id))")
        case let other: throw unexpected("POST /notes/\(note._id)/clone copies", other)
        }
    }

    /// A dry run: 200, the counts, `clone` null, nothing written.
    func dryRun(_ note: Components.Schemas.NoteRecord) async throws {
        switch try await api.cloneNote(path: .init(id: note._id), body: .json(.init(dryRun: true))) {
        case .ok(let answer):
            let result = try answer.body.json
            try expect(result.dryRun && result.clone == nil, "dry run answers clone null")
            try expect(result.created.additionalProperties["Item"] == 2, "dry run counts the items")
            step("dry run: would create \(result.created.additionalProperties)")
        case let other: throw unexpected("POST /notes/\(note._id)/clone dryRun", other)
        }
    }

    /// A retry with the same `Idempotency-Key` answers the first answer again, marked replayed.
    func idempotentRetry(_ note: Components.Schemas.NoteRecord) async throws {
        let key = "walk-\(UUID().uuidString)"
        var first: Int64?
        for attempt in 1...2 {
            switch try await api.cloneNote(path: .init(id: note._id), headers: .init(idempotencyKey: key), body: .json(.init())) {
            case .created(let answer):
                let clone = try require(try answer.body.json.clone, "clone present")
                if attempt == 1 {
                    try expect(answer.headers.idempotentReplayed == nil, "first answer is not a replay")
                    first = clone.id
                } else {
                    try expect(answer.headers.idempotentReplayed == ._true, "second answer is marked Idempotent-Replayed")
                    try expect(clone.id == first, "the replay names the same clone")
                }
            case .conflict(let answer):
                // Another replica still runs the first request: the typed Retry-After says when to ask again.
                throw Unexpected(description: "409 in_progress (Retry-After \(answer.headers.retryAfter ?? 0)) for a sequential retry")
            case let other: throw unexpected("POST /notes/\(note._id)/clone Idempotency-Key attempt \(attempt)", other)
            }
        }
        step("idempotent retry: key \(key) cloned once (note \(first ?? 0)), replayed once")
    }

    /// `Prefer: respond-async` (here with a second preference, which the runtime percent-encodes
    /// along with the comma): 202 and a job, polled until it has succeeded.
    func cloneAsJob(_ note: Components.Schemas.NoteRecord) async throws {
        let job: Components.Schemas.Job
        switch try await api.cloneNote(path: .init(id: note._id), headers: .init(prefer: "respond-async, wait=5"), body: .json(.init())) {
        case .accepted(let answer):
            job = try answer.body.json
            try expect(answer.headers.location == "/jobs/\(job.id)", "Location is the job")
        case let other: throw unexpected("POST /notes/\(note._id)/clone Prefer: respond-async", other)
        }
        var polls = 0
        while true {
            polls += 1
            switch try await api.getJob(path: .init(id: job.id)) {
            case .ok(let answer):
                let current = try answer.body.json
                switch current.status {
                case .succeeded:
                    let result = try require(current.result, "a succeeded job has its result")
                    let clone = try require(result.clone, "the job's clone")
                    try expect(current.progress.written == current.progress.planned, "progress complete")
                    step("async job \(job.id): succeeded after \(polls) poll(s), note \(clone.id)")
                    return
                case .failed:
                    throw Unexpected(description: "job failed: \(String(describing: current.error))")
                case .cancelled:
                    throw Unexpected(description: "job \(job.id) was cancelled")
                case .queued, .running:
                    guard polls < 300 else { throw Unexpected(description: "job \(job.id) still \(current.status) after \(polls) polls") }
                    try await Task.sleep(for: .milliseconds(100))
                }
            case let other: throw unexpected("GET /jobs/\(job.id)", other)
            }
        }
    }

    /// Pages of two notes, following `next`'s cursor until it is null: every note once, in `_id` order.
    func listWithCursor() async throws {
        var cursor: String?
        var seen: [Int64] = []
        var pages = 0
        repeat {
            switch try await api.listNote(query: .init(limit: 2, cursor: cursor)) {
            case .ok(let answer):
                let page = try answer.body.json
                pages += 1
                seen += page.data.map(\._id)
                cursor = try page.next.map { next in
                    let items = URLComponents(string: next)?.queryItems ?? []
                    return try require(items.first { $0.name == "cursor" }?.value, "next carries a cursor: \(next)")
                }
                try expect(page.data.count <= 2, "a page holds at most the limit")
            case let other: throw unexpected("GET /notes?limit=2", other)
            }
        } while cursor != nil && pages < 1000
        try expect(seen == seen.sorted() && Set(seen).count == seen.count, "pages in _id order without repeats: \(seen)")
        try expect(seen.count >= 7, "the walk's 7 notes are listed, got \(seen.count)")
        step("list: \(seen.count) notes in \(pages) pages of 2 by cursor")
    }

    /// Errors an app must read: a missing record (404) and a link to one (422 naming the field).
    func problemDetails() async throws {
        switch try await api.getNote(path: .init(id: 999_999_999)) {
        case .notFound(let answer):
            let problem = try answer.body.applicationProblemJson
            try expect(problem.code == "not_found" && problem._type == "urn:cloner:problem:not_found", "404 problem")
        case let other: throw unexpected("GET /notes/999999999", other)
        }
        let body = Components.Schemas.NoteCreate(createDate: Date(), id: UUID().uuidString, items: [.ObjectID(999_999_999)])
        switch try await api.createNote(body: .json(body)) {
        case .unprocessableContent(let answer):
            let problem = try answer.body.applicationProblemJson
            try expect(problem.code == "validation_failed", "422 code validation_failed, got \(problem.code)")
            try expect(problem.errors?.contains { $0.field.hasPrefix("items") } == true, "errors name items: \(String(describing: problem.errors))")
            step("problems: 404 not_found; 422 validation_failed naming \(problem.errors?.map(\.field) ?? [])")
        case let other: throw unexpected("POST /notes linking a missing item", other)
        }
    }

    // MARK: Support

    private func step(_ line: String) {
        steps.append(line)
        print("ok  \(line)")
    }

    private func expect(_ condition: Bool, _ what: String) throws {
        guard condition else { throw Unexpected(description: "expected \(what)") }
    }

    private func require<T>(_ value: T?, _ what: String) throws -> T {
        guard let value else { throw Unexpected(description: "expected \(what)") }
        return value
    }

    private func unexpected(_ request: String, _ answer: Any) -> Unexpected {
        Unexpected(description: "\(request): unexpected answer \(answer)")
    }
}
