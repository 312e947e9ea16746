import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation

/// `/jobs` (docs/architecture.md#routes): a job still running in this process answers with its live
/// progress from the registry; a finished one (or one of another process) from its persisted row.
/// Listing, cancelling and watching are in `+List`, `+Cancel` and `+Events`.
final class JobsController: Sendable {
    let store: IncrementalStore
    let jobs: JobRegistry
    /// Where the event streams read a job's row: a read blocks, so never on the event loop.
    let readWorkers: StoreWorkers
    /// This process's replica id, to tell its own jobs from another replica's.
    let replicaID: String

    init(store: IncrementalStore, jobs: JobRegistry, readWorkers: StoreWorkers, replicaID: String) {
        self.store = store
        self.jobs = jobs
        self.readWorkers = readWorkers
        self.replicaID = replicaID
    }

    func jobResponse(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try JobsController.jobID(request)
        if let live = liveDocument(id) { return .json(live) }
        guard let record = try store.read({ try $0.job(id: id) }) else {
            throw Problem.notFound("no job \(id)")
        }
        return .json(document(record))
    }

    /// The `id` parameter. Job ids are the lower-case UUIDs `JobRunner` makes: anything else (a
    /// NUL, bytes that were not UTF-8, a kilobyte of text) names no job and never reaches the store.
    static func jobID(_ request: HTTPRequest) throws(Problem) -> String {
        let id = request.parameter("id") ?? ""
        guard JobsController.canBeJobID(id) else { throw Problem.notFound("no job \(id)") }
        return id
    }

    /// The document of job `id` while it runs in this process, with its live progress; nil once
    /// it has finished here (its row answers) or when it is not this process's.
    func liveDocument(_ id: String) -> [UInt8]? {
        guard let job = jobs.job(id), job.finishedAt == nil else { return nil }
        let status: JobStatus = job.status == .queued ? .queued : .running
        return JobsController.jobJSON(id: id, status: status, planned: job.progress.planned, written: job.progress.written, result: nil, error: nil)
    }

    /// A job's document from its row: a running job of this process with its live progress, a
    /// succeeded one with the counts of its result.
    func document(_ record: JobRecord) -> [UInt8] {
        if !record.status.isFinished, let live = liveDocument(record.id) { return live }
        var planned = 0
        if let result = record.result, case .object(let members)? = try? JSONValue(parsing: result), case .object(let created)? = members["created"] {
            planned = created.values.reduce(0) { total, value in if case .integer(let count) = value { return total + Int(count) } else { return total } }
        }
        return JobsController.jobJSON(
            id: record.id, status: record.status, planned: planned, written: planned,
            result: record.result.map(Array.init), error: record.error.map(Array.init))
    }

    /// Whether `id` has the form of a job id: a UUID as 36 characters of lower-case text.
    static func canBeJobID(_ id: String) -> Bool {
        id.utf8.count == 36 && id == id.lowercased() && UUID(uuidString: id) != nil
    }

    static func jobJSON(id: String, status: JobStatus, planned: Int, written: Int, result: [UInt8]?, error: [UInt8]?) -> [UInt8] {
        var writer = JSONWriter(capacity: 160 + (result?.count ?? 0) + (error?.count ?? 0))
        writeJob(id: id, status: status, planned: planned, written: written, result: result, error: error, to: &writer)
        return writer.bytes
    }

    static func writeJob(id: String, status: JobStatus, planned: Int, written: Int, result: [UInt8]?, error: [UInt8]?, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id"); writer.string(id)
        writer.key("status"); writer.string(status.rawValue)
        writer.key("progress")
        writer.beginObject()
        writer.key("planned"); writer.integer(planned)
        writer.key("written"); writer.integer(written)
        writer.endObject()
        if let result { writer.key("result"); writer.raw(String(decoding: result, as: UTF8.self)) }
        if let error { writer.key("error"); writer.raw(String(decoding: error, as: UTF8.self)) }
        writer.endObject()
    }
}
