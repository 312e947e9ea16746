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
        var limit = JobsController.defaultPageSize
        var position: JobListPosition?
        var errors: [FieldError] = []
        var seen: Set<String> = []
        for item in request.queryItems {
            guard seen.insert(item.name).inserted else {
                errors.append(FieldError(field: item.name, message: "given more than once"))
                continue
            }
            switch item.name {
            case "status":
                status = JobStatus(rawValue: item.value)
                if status == nil {
                    let names = JobStatus.allCases.map(\.rawValue).joined(separator: ", ")
                    errors.append(FieldError(field: "status", message: "expected one of \(names), got \(item.value)"))
                }
            case "limit":
                if let number = Int(item.value), (1...JobsController.maximumPageSize).contains(number) {
                    limit = number
                } else {
                    errors.append(FieldError(field: "limit", message: "expected an integer from 1 to \(JobsController.maximumPageSize), got \(item.value)"))
                }
            case "cursor":
                position = JobsController.position(decoding: item.value)
                if position == nil {
                    errors.append(FieldError(field: "cursor", message: "not a cursor of this service; use the next link of the previous page as given"))
                }
            default:
                errors.append(FieldError(field: item.name, message: "not a parameter of GET /jobs (status, limit, cursor)"))
            }
        }
        guard errors.isEmpty else { throw Problem.validationFailed(errors) }
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
            if seen.contains("limit") { parts.append("limit=\(limit)") }
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
