import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation

/// `GET /jobs/{id}` (docs/architecture.md#routes): a job still running in this process answers with its live
/// progress from the registry; a finished one (or one of another process) from its persisted row.
final class JobsController: Sendable {
    let store: IncrementalStore
    let jobs: JobRegistry

    init(store: IncrementalStore, jobs: JobRegistry) {
        self.store = store
        self.jobs = jobs
    }

    func jobResponse(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = request.parameter("id") ?? ""
        // Job ids are the lower-case UUIDs `JobRunner` makes: anything else (a NUL, bytes
        // that were not UTF-8, a kilobyte of text) names no job and never reaches the store.
        guard JobsController.canBeJobID(id) else { throw Problem.notFound("no job \(id)") }
        if let job = jobs.job(id), job.finishedAt == nil {
            let status: JobStatus = job.status == .queued ? .queued : .running
            return .json(JobsController.jobJSON(id: id, status: status, planned: job.progress.planned, written: job.progress.written, result: nil, error: nil))
        }
        guard let record = try store.read({ try $0.job(id: id) }) else {
            throw Problem.notFound("no job \(id)")
        }
        var planned = 0
        if let result = record.result, case .object(let members)? = try? JSONValue(parsing: result), case .object(let created)? = members["created"] {
            planned = created.values.reduce(0) { total, value in if case .integer(let count) = value { return total + Int(count) } else { return total } }
        }
        return .json(
            JobsController.jobJSON(
                id: id, status: record.status, planned: planned, written: planned,
                result: record.result.map(Array.init), error: record.error.map(Array.init)))
    }

    /// Whether `id` has the form of a job id: a UUID as 36 characters of lower-case text.
    static func canBeJobID(_ id: String) -> Bool {
        id.utf8.count == 36 && id == id.lowercased() && UUID(uuidString: id) != nil
    }

    static func jobJSON(id: String, status: JobStatus, planned: Int, written: Int, result: [UInt8]?, error: [UInt8]?) -> [UInt8] {
        var writer = JSONWriter(capacity: 160 + (result?.count ?? 0) + (error?.count ?? 0))
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
        return writer.bytes
    }
}
