import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation

/// `GET /{collection}/{id}/clones` (docs/architecture.md#lineage): the clones made from an object,
/// newest first, paged as every list is (`data`, and `next`, the following page's link or null),
/// one query per page. The lineage outlives the source, so the list still answers once the
/// source is deleted; an object that does not exist and has no clone is a 404.
extension RecordsController {
    func clones(_ request: HTTPRequest) throws -> HTTPResponse {
        let entity = try request.entity(in: model)
        let id = try request.objectID(of: entity)
        let query = try NewestFirstPageQuery(
            request, route: "GET /{collection}/{id}/clones", defaultLimit: RecordsController.defaultPageSize,
            maximumLimit: RecordsController.maximumPageSize, decode: RecordsController.clonePosition(decoding:))
        let (limit, position) = (query.limit, query.position)
        // One row more tells whether a next page exists.
        let (found, exists) = try store.read { context in
            let found = try context.clones(entity: entity.name, sourceID: id, after: position, limit: limit + 1)
            // An empty first page asks once more: an object without clones still answers 200.
            let exists = try !found.isEmpty || position != nil || context.version(entity: entity.name, id: id) != nil
            return (found, exists)
        }
        guard exists else { throw Problem.notFound("\(entity.name) \(id) does not exist and has no clones") }
        let page = found.prefix(limit)
        var writer = JSONWriter(capacity: 64 + page.count * 80)
        writer.beginObject()
        writer.key("data")
        writer.beginArray()
        for clone in page {
            writer.beginObject()
            writer.key("entity"); writer.string(clone.entity)
            writer.key("id"); writer.integer(clone.cloneID)
            writer.key("createdAt"); writer.string(RFC3339Timestamp.format(millisecondsSince1970: clone.createdAtMilliseconds))
            writer.endObject()
        }
        writer.endArray()
        writer.key("next")
        if found.count > limit, let last = page.last {
            var parts: [String] = []
            if query.namesLimit { parts.append("limit=\(limit)") }
            parts.append("cursor=\(RecordsController.encoded(CloneListPosition(after: last)))")
            writer.string("/\(entity.collection)/\(id)/clones?" + parts.joined(separator: "&"))
        } else {
            writer.null()
        }
        writer.endObject()
        return .json(writer.bytes)
    }

    static func encoded(_ position: CloneListPosition) -> String {
        NewestFirstCursor.encoded(milliseconds: position.createdAtMilliseconds, key: String(position.cloneID))
    }

    static func clonePosition(decoding cursor: String) -> CloneListPosition? {
        guard let (milliseconds, key) = NewestFirstCursor.decoded(cursor, maximumBytes: 64), let id = Int64(key), id > 0 else { return nil }
        return CloneListPosition(createdAtMilliseconds: milliseconds, cloneID: id)
    }
}
