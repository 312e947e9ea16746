import ClonerHTTP
import ClonerStore
import Foundation

/// `GET /jobs`: the jobs of every replica, newest first, paged as record lists are (`data`, and
/// `next`, the link to the following page or null), one query per page.
extension JobsController {
    static let defaultPageSize = 50
    static let maximumPageSize = 1000

    func list(_ request: HTTPRequest) throws -> HTTPResponse {
        var status: JobStatus?
        let query = try NewestFirstPageQuery(
            request, route: "GET /jobs", defaultLimit: JobsController.defaultPageSize, maximumLimit: JobsController.maximumPageSize,
            own: ["status"], decode: JobsController.position(decoding:)
        ) { item, errors in
            status = JobStatus(rawValue: item.value)
            if status == nil {
                let names = JobStatus.allCases.map(\.rawValue).joined(separator: ", ")
                errors.append(FieldError(field: "status", message: "expected one of \(names), got \(item.value)"))
            }
        }
        let (limit, position) = (query.limit, query.position)
        // One row more tells whether a next page exists.
        let records = try store.read { try $0.jobs(status: status, after: position, limit: limit + 1) }
        let page = records.prefix(limit)
        var writer = JSONWriter(capacity: 64 + page.count * 256)
        writer.beginObject()
        writer.key("data")
        writer.beginArray()
        for record in page { writer.raw(String(decoding: document(record), as: UTF8.self)) }
        writer.endArray()
        writer.key("next")
        if records.count > limit, let last = page.last {
            var parts: [String] = []
            if let status { parts.append("status=\(status.rawValue)") }
            if query.namesLimit { parts.append("limit=\(limit)") }
            parts.append("cursor=\(JobsController.encoded(JobListPosition(after: last)))")
            writer.string("/jobs?" + parts.joined(separator: "&"))
        } else {
            writer.null()
        }
        writer.endObject()
        return .json(writer.bytes)
    }

    static func encoded(_ position: JobListPosition) -> String {
        NewestFirstCursor.encoded(milliseconds: position.createdAtMilliseconds, key: position.id)
    }

    static func position(decoding cursor: String) -> JobListPosition? {
        guard let (milliseconds, id) = NewestFirstCursor.decoded(cursor), canBeJobID(id) else { return nil }
        return JobListPosition(createdAtMilliseconds: milliseconds, id: id)
    }
}
