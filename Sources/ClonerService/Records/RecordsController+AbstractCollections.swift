import ClonerHTTP
import ClonerModel
import ClonerStore

/// An abstract entity's read-only collection (docs/architecture.md#relationships-into-a-hierarchy):
/// `GET /baseposts` and `GET /baseposts/7` over the objects of its concrete entities, each answered
/// as its concrete entity's record (its own `_entity`, all its fields). Its concrete entities share
/// one `_id` space, so `_id` order is one order over them all: a page is each concrete entity's
/// page after the same `_id`, merged. Writes go to the concrete collections
/// (`HTTPRequest.entity(in:)` refuses them here with a 405 naming those).
extension RecordsController {
    // MARK: GET /{abstract collection}

    func listAbstract(_ request: HTTPRequest, _ abstract: AbstractEntityDescription) throws -> HTTPResponse {
        let concrete = abstract.concreteEntities.compactMap { model.entity(named: $0) }
        var limit = RecordsController.defaultPageSize
        var after: Int64?
        var predicates: [FetchRequest.Equality] = []
        var counted = false
        var errors: [FieldError] = []
        var seen: Set<String> = []
        for item in request.queryItems {
            let property = ListQuery.controls.contains(item.name) ? item.name : ListQuery.filteredProperty(item.name)
            guard seen.insert(property).inserted else {
                errors.append(FieldError(field: item.name, message: "given more than once"))
                continue
            }
            switch item.name {
            case "limit":
                if let value = Int(item.value), (1...RecordsController.maximumPageSize).contains(value) {
                    limit = value
                } else {
                    errors.append(FieldError(field: "limit", message: "expected an integer from 1 to \(RecordsController.maximumPageSize), got \(item.value)"))
                }
            case "after":
                if let value = Int64(item.value), value > 0 {
                    after = value
                } else {
                    errors.append(FieldError(field: "after", message: "expected an _id (a positive integer), got \(item.value)"))
                }
            case "count":
                if item.value == "true" || item.value == "false" {
                    counted = item.value == "true"
                } else {
                    errors.append(FieldError(field: "count", message: "expected true or false, got \(RecordJSONCoding.quoted(item.value))"))
                }
            case "order", "cursor":
                if item.name == "order" && (item.value == "_id" || item.value.isEmpty) { continue }
                errors.append(
                    FieldError(
                        field: item.name,
                        message:
                            "\(abstract.name) is abstract: its collection lists in _id order only, page after page with after; order in /\(abstract.collection)'s concrete collections"
                    ))
            default:
                do {
                    predicates.append(try abstractFilter(abstract, concrete: concrete, name: property, text: item.value, parameter: item.name))
                } catch {
                    errors.append(error)
                }
            }
        }
        guard errors.isEmpty else { throw Problem.validationFailed(errors) }
        let inlineBinaryBytes = inlineBinaryBytes, pageTextBytes = pageTextBytes
        let (pages, count) = try store.read { context -> ([RecordPage], Int64?) in
            var pages: [RecordPage] = []
            var count: Int64 = 0
            for entity in concrete {
                let fetch = FetchRequest(entity: entity.name, predicates: predicates, after: after)
                pages.append(try context.fetchRecordPage(fetch, pageSize: limit, inlineBinaryBytes: inlineBinaryBytes, textBytes: pageTextBytes))
                if counted { count += try context.countRecords(fetch) }
            }
            return (pages, counted ? count : nil)
        }
        let (shown, hasMore) = Self.mergedPage(pages, limit: limit)
        var writer = JSONWriter(capacity: 64 + shown.count * 256)
        writer.beginObject()
        writer.key("data")
        writer.beginArray()
        for (page, index) in shown { pages[page].records.write(index, keys: keys(concrete[page]), to: &writer) }
        writer.endArray()
        let next = hasMore ? shown.last.map { nextAbstractPage(request, after: pages[$0.page].records.ids[$0.index]) } : nil
        return Self.endOfPage(&writer, next: next, count: count)
    }

    /// The records of one page over several concrete entities' pages (each in `_id` order after
    /// the same `_id`), as (page, record) in `_id` order, and whether more follow. A page that has
    /// more ends at its last `_id`: nothing past the lowest such end is shown, since that page's
    /// next records may come before it.
    static func mergedPage(_ pages: [RecordPage], limit: Int) -> (shown: [(page: Int, index: Int)], hasMore: Bool) {
        let end = pages.filter(\.hasMore).compactMap(\.records.ids.last).min() ?? .max
        var entries: [(id: Int64, page: Int, index: Int)] = []
        for (page, records) in pages.map(\.records).enumerated() {
            for (index, id) in records.ids.enumerated() where id <= end { entries.append((id, page, index)) }
        }
        entries.sort { $0.id < $1.id }
        let hasMore = entries.count > limit || pages.contains(where: \.hasMore)
        return (entries.prefix(limit).map { ($0.page, $0.index) }, hasMore)
    }

    /// An equality on an attribute every concrete entity of `abstract` has, or on a to-one each
    /// of them stores as a column of that name (`/baseposts?blog=1`).
    private func abstractFilter(
        _ abstract: AbstractEntityDescription, concrete: [EntityDescription], name: String, text: String, parameter: String
    ) throws(FieldError) -> FetchRequest.Equality {
        if abstract.attribute(named: name) == nil, !concrete.isEmpty, concrete.allSatisfy({ isStoredToOne($0, name) }) {
            if text == "null" { return .init(name, .null) }
            guard let id = Int64(text), id > 0 else {
                throw FieldError(field: parameter, message: "expected an _id (a positive integer) or null, got \(text)")
            }
            return .init(name, .integer(id))
        }
        guard let attribute = abstract.attribute(named: name) else {
            let shared = abstract.attributes.map(\.name).joined(separator: ", ")
            throw FieldError(
                field: parameter,
                message:
                    "\(abstract.name) has no attribute named \(name) that all its concrete entities share (\(shared)), nor a to-one they all store; the query parameters are limit, after, count and those"
            )
        }
        if text == "null" && attribute.isOptional && attribute.type != .string { return .init(name, .null) }
        return .init(name, try RecordJSONCoding.decodeQueryValue(text, type: attribute.type, field: parameter))
    }

    /// The same query continued after `after`.
    private func nextAbstractPage(_ request: HTTPRequest, after: Int64) -> String {
        var parts: [String] = []
        for item in request.queryItems where item.name != "after" {
            parts.append(RecordsController.percentEncoded(item.name) + "=" + RecordsController.percentEncoded(item.value))
        }
        parts.append("after=\(after)")
        return String(request.path) + "?" + parts.joined(separator: "&")
    }

    // MARK: GET /{abstract collection}/{id}

    func readAbstract(_ request: HTTPRequest, _ abstract: AbstractEntityDescription) throws -> HTTPResponse {
        let text = request.parameter("id") ?? ""
        guard let id = Int64(text), id > 0 else { throw Problem.notFound("\(abstract.name) \(text) does not exist: an _id is a positive integer") }
        let inlineBinaryBytes = inlineBinaryBytes
        let concrete = abstract.concreteEntities
        let found = try store.read { context -> StoredRecords? in
            guard let holder = try context.concreteEntities(ofIDs: [id], among: concrete)[id] else { return nil }
            return try context.fetchRecords(entity: holder, ids: [id], inlineBinaryBytes: inlineBinaryBytes)
        }
        guard let records = found, records.count == 1 else {
            throw Problem.notFound("\(abstract.name) \(id) does not exist: no \(concrete.joined(separator: " or ")) has that _id")
        }
        let entityTag = records.entityTag(0)
        if let tags = request.headers.clientValue(.ifNoneMatch), EntityTags.noneMatch(tags, current: entityTag) {
            return HTTPResponse(status: .notModified, headers: ["ETag": entityTag])
        }
        var writer = JSONWriter(capacity: 256)
        records.write(0, keys: keys(records.entity), to: &writer)
        return HTTPResponse.json(writer.bytes, headers: ["ETag": entityTag, "Content-Location": "/\(records.entity.collection)/\(id)"])
    }
}
