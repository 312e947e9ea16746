import ClonerHTTP
import ClonerModel
import ClonerStore
import Foundation

/// The record routes (docs/architecture.md#routes): list, create, read, partial update, delete.
final class RecordsController: Sendable {
    static let defaultPageSize = 50
    static let maximumPageSize = 1000
    /// Keys one `order` may name: each is a sort column and a term of the cursor's condition, and
    /// a list needs few to be unambiguous (`_id` always ends it).
    static let maximumOrderKeys = 8

    let model: DataModel
    let store: IncrementalStore
    /// `maxObjectsPerRequest`: JSON objects a create or PATCH body may hold below its own.
    let maximumObjects: Int
    /// `maxValuesPerRequest`: JSON values (of every kind) a create or PATCH body may hold.
    let maximumValues: Int
    /// `maxInlineBinaryBytes`: binary values one answer carries inline, in bytes.
    let inlineBinaryBytes: Int
    /// `maxPageTextBytes`: text and json values one list page carries; the page ends before the
    /// record that would pass it, and `next` continues from there.
    let pageTextBytes: Int
    /// Member names per entity, encoded once for the read routes.
    private let recordKeys: [String: RecordKeys]

    init(model: DataModel, store: IncrementalStore, maximumObjects: Int, maximumValues: Int, inlineBinaryBytes: Int, pageTextBytes: Int) {
        self.model = model
        self.store = store
        self.maximumObjects = maximumObjects
        self.maximumValues = maximumValues
        self.inlineBinaryBytes = inlineBinaryBytes
        self.pageTextBytes = pageTextBytes
        self.recordKeys = RecordKeys.byEntity(model)
    }

    func keys(_ entity: EntityDescription) -> RecordKeys {
        guard let keys = recordKeys[entity.name] else { preconditionFailure("no record keys for \(entity.name)") }
        return keys
    }

    // MARK: GET /{collection}

    func list(_ request: HTTPRequest) throws -> HTTPResponse {
        if let abstract = model.abstractEntity(forCollection: request.parameter("collection") ?? "") {
            return try listAbstract(request, abstract)
        }
        let entity = try request.entity(in: model)
        var fetch = FetchRequest(entity: entity.name, limit: RecordsController.defaultPageSize)
        var errors: [FieldError] = []
        var seen: Set<String> = []
        var cursorText: String?
        var counted = false
        var hierarchyFilters: [HierarchyFilter] = []
        for item in request.queryItems {
            // A filter is one whichever form names it: `name` and `where.name` together are a repeat.
            let isControl = ListQuery.controls.contains(item.name)
            let property = isControl ? item.name : ListQuery.filteredProperty(item.name)
            guard seen.insert(isControl ? item.name : ListQuery.filterPrefix + property).inserted else {
                errors.append(FieldError(field: item.name, message: "given more than once"))
                continue
            }
            switch item.name {
            case "limit":
                if let limit = Int(item.value), (1...RecordsController.maximumPageSize).contains(limit) {
                    fetch.limit = limit
                } else {
                    errors.append(FieldError(field: "limit", message: "expected an integer from 1 to \(RecordsController.maximumPageSize), got \(item.value)"))
                }
            case "after":
                if let after = Int64(item.value), after > 0 {
                    fetch.after = after
                } else {
                    errors.append(FieldError(field: "after", message: "expected an _id (a positive integer), got \(item.value)"))
                }
            case "cursor":
                cursorText = item.value
            case "count":
                switch item.value {
                case "true": counted = true
                case "false": counted = false
                default: errors.append(FieldError(field: "count", message: "expected true or false, got \(RecordJSONCoding.quoted(item.value))"))
                }
            case "order":
                fetch.sort += order(item.value, of: entity, errors: &errors)
            default:
                do {
                    if let parts = filterableParts(entity, field: property) {
                        hierarchyFilters.append(try HierarchyFilter(parts: parts, text: item.value, parameter: item.name))
                    } else {
                        fetch.predicates.append(try filter(entity, name: property, text: item.value, parameter: item.name))
                    }
                } catch {
                    errors.append(error)
                }
            }
        }
        if let cursorText, errors.isEmpty {
            // Decoded once the order is known: a cursor is a place in one order.
            if fetch.after != nil {
                errors.append(FieldError(field: "after", message: "give either after or cursor, not both"))
            } else {
                do {
                    fetch.position = try ListCursor.decode(cursorText, sort: fetch.sort).position
                } catch {
                    errors.append(error)
                }
            }
        }
        guard errors.isEmpty else { throw Problem.validationFailed(errors) }

        let pageSize = fetch.limit ?? RecordsController.defaultPageSize
        // The records are read by position and written straight from the page (no per-record
        // dictionary); only the page is faulted in, one row more tells whether a next page exists.
        let inlineBinaryBytes = inlineBinaryBytes, pageTextBytes = pageTextBytes
        let (page, count) = try store.read { context -> (RecordPage, Int64?) in
            var fetch = fetch
            for filter in hierarchyFilters { fetch.predicates += try filter.predicates(in: context) }
            do {
                // The count in the page's snapshot: what the filters match as the page was read.
                let page = try context.fetchRecordPage(fetch, pageSize: pageSize, inlineBinaryBytes: inlineBinaryBytes, textBytes: pageTextBytes)
                return (page, counted ? try context.countRecords(fetch) : nil)
            } catch StoreError.notFound(_, let id) where id == fetch.after {
                // `after` names a record whose sort keys are needed and it is gone: a bad
                // parameter, not a missing collection, so 422 naming `after` rather than a 404.
                throw Problem.validationFailed([
                    FieldError(
                        field: "after",
                        message:
                            "no \(entity.name) with _id \(id): under an order other than _id, after must name an existing record; follow the next link, whose cursor needs none"
                    )
                ])
            }
        }
        let keys = keys(entity)
        var writer = JSONWriter(capacity: 64 + page.records.count * 256)
        writer.beginObject()
        writer.key("data")
        writer.beginArray()
        for index in 0..<page.records.count { page.records.write(index, keys: keys, to: &writer) }
        writer.endArray()
        let next = page.hasMore ? page.lastPosition.map { nextPage(request, cursor: ListCursor(order: ListCursor.orderText(fetch.sort), position: $0)) } : nil
        return Self.endOfPage(&writer, next: next, count: count)
    }

    /// A page's answer after its `data`: `next` (the route of the page after, or null on the last)
    /// and, when asked for, `count`.
    static func endOfPage(_ writer: inout JSONWriter, next: String?, count: Int64?) -> HTTPResponse {
        writer.key("next")
        if let next { writer.string(next) } else { writer.null() }
        if let count {
            writer.key("count")
            writer.integer(count)
        }
        writer.endObject()
        return .json(writer.bytes)
    }

    /// The sort keys `order` names (`-title,_id`), each an attribute, a stored to-one or `_id`.
    private func order(_ value: String, of entity: EntityDescription, errors: inout [FieldError]) -> [FetchRequest.Sort] {
        let keys = value.split(separator: ",", omittingEmptySubsequences: false)
        guard keys.count <= RecordsController.maximumOrderKeys else {
            errors.append(FieldError(field: "order", message: "at most \(RecordsController.maximumOrderKeys) keys, got \(keys.count)"))
            return []
        }
        var sort: [FetchRequest.Sort] = []
        var named: Set<String> = []
        for key in keys.map(String.init) {
            let descending = key.hasPrefix("-")
            let name = descending ? String(key.dropFirst()) : key
            if !named.insert(name).inserted {
                errors.append(FieldError(field: "order", message: "names \(name) more than once"))
            } else if name == "_id" || entity.attribute(named: name) != nil || isStoredToOne(entity, name) || filterableParts(entity, field: name) != nil {
                sort.append(FetchRequest.Sort(name, ascending: !descending))
            } else {
                errors.append(FieldError(field: "order", message: "\(entity.name) has no attribute or to-one relationship named \(name)"))
            }
        }
        return sort
    }

    func isStoredToOne(_ entity: EntityDescription, _ name: String) -> Bool {
        guard let relationship = entity.relationship(named: name), !relationship.isToMany, !relationship.isHierarchyPart else { return false }
        if case .foreignKeyOnSource = store.schema.storage(of: relationship) { return true }
        return false
    }

    /// The equality `parameter` (`name` or `where.name`) asks for on the property `name`; a fault
    /// is a 422 naming the parameter as the client wrote it.
    private func filter(_ entity: EntityDescription, name: String, text: String, parameter: String) throws(FieldError) -> FetchRequest.Equality {
        if let attribute = entity.attribute(named: name) {
            if text == "null" && attribute.isOptional && attribute.type != .string { return .init(name, .null) }
            return .init(name, try RecordJSONCoding.decodeQueryValue(text, type: attribute.type, field: parameter))
        }
        if isStoredToOne(entity, name) {
            if text == "null" { return .init(name, .null) }
            guard let id = Int64(text), id > 0 else {
                throw FieldError(field: parameter, message: "expected an _id (a positive integer) or null, got \(text)")
            }
            return .init(name, .integer(id))
        }
        if entity.relationship(named: name) != nil {
            throw FieldError(field: parameter, message: "only attributes and to-one relationships stored on \(entity.name) can filter")
        }
        throw FieldError(
            field: parameter,
            message:
                "\(entity.name) has no attribute named \(name); the query parameters are limit, after, cursor, order, count, attribute names, and where.NAME for any attribute"
        )
    }

    /// The same query with the cursor moved to `cursor` (any `after` or earlier cursor dropped).
    func nextPage(_ request: HTTPRequest, cursor: ListCursor) -> String {
        var parts: [String] = []
        for item in request.queryItems where item.name != "after" && item.name != "cursor" {
            parts.append(RecordsController.percentEncoded(item.name) + "=" + RecordsController.percentEncoded(item.value))
        }
        parts.append("cursor=\(cursor.encoded)")
        return String(request.path) + "?" + parts.joined(separator: "&")
    }

    private static let queryValueCharacters: CharacterSet = {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+;#")
        return allowed
    }()

    static func percentEncoded(_ text: String) -> String {
        // Letters, digits and `-._~` (RFC 3986 §2.3, unreserved) pass unchanged whatever the set:
        // the usual `note=1&limit=50` needs no CharacterSet walk.
        let unreserved = text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                return true
            default: return false
            }
        }
        if unreserved { return text }
        return text.addingPercentEncoding(withAllowedCharacters: queryValueCharacters) ?? text
    }

    // MARK: POST /{collection}

    func create(_ request: HTTPRequest) throws -> HTTPResponse {
        let entity = try request.entity(in: model)
        try request.requireJSONBody()
        try checkWidth(request.body)
        let body = try readBody(request.body, entity: entity, mode: .create)
        if !body.problems.isEmpty { throw try refusal(body) }
        let inlineBinaryBytes = inlineBinaryBytes, model = model
        let records: StoredRecords
        do {
            records = try store.write { context -> StoredRecords in
                let input = try body.input.resolvingHierarchyFields(in: context, model: model)
                let result = try context.save(input.changeSet())
                return try context.fetchRecords(entity: entity.name, ids: [result.insertedIDs[0]], inlineBinaryBytes: inlineBinaryBytes)
            }
        } catch let error as StoreError {
            guard case .danglingReference = error else { throw error }
            throw try refusal(body, otherwise: error)
        }
        guard records.count == 1 else { throw Problem.internalError() }
        return HTTPResponse.json(
            recordBytes(records, entity: entity), status: .created,
            headers: [
                "Location": "/\(entity.collection)/\(records.ids[0])", "ETag": records.entityTag(0),
            ])
    }

    /// The body of a create or PATCH read against the model; text that is not JSON is a 400.
    private func readBody(_ bytes: [UInt8], entity: EntityDescription, mode: RecordInput.Mode) throws(Problem) -> RecordBody {
        do {
            return try RecordInput.readBody(bytes, entity: entity, model: model, mode: mode)
        } catch {
            throw error.problem
        }
    }

    /// The one 422 for a body that cannot be saved: its value problems and every link to a
    /// missing object, read in a transaction of its own (one query per relationship). The save
    /// stops at the first missing link it meets, so when it is what refused the body the links
    /// are read again to name them all; `otherwise` is thrown should they all exist by then.
    private func refusal(_ body: RecordBody, otherwise error: (any Error)? = nil) throws -> any Error {
        let missing = body.links.isEmpty ? [] : try store.read { try RecordLink.missing(body.links, in: $0) }
        let problems = (body.problems + missing).sorted { $0.field < $1.field }
        if problems.isEmpty, let error { return error }
        return Problem.validationFailed(problems)
    }

    /// Refuses a body holding more objects or values than one request may, before it is parsed:
    /// depth is bounded by the parser, width here (memory and work grow with the values).
    private func checkWidth(_ body: [UInt8]) throws(Problem) {
        try BodyObjectCount.check(body, maximumObjects: maximumObjects, maximumValues: maximumValues)
    }

    // MARK: GET /{collection}/{id}

    func read(_ request: HTTPRequest) throws -> HTTPResponse {
        if let abstract = model.abstractEntity(forCollection: request.parameter("collection") ?? "") {
            return try readAbstract(request, abstract)
        }
        let entity = try request.entity(in: model)
        let id = try request.objectID(of: entity)
        let inlineBinaryBytes = inlineBinaryBytes
        let records = try store.read { try $0.fetchRecords(entity: entity.name, ids: [id], inlineBinaryBytes: inlineBinaryBytes) }
        guard records.count == 1 else {
            throw Problem.notFound("\(entity.name) \(id) does not exist")
        }
        let entityTag = records.entityTag(0)
        // RFC 9110 §13.1.2: `*` matches any current representation, as a listed version does.
        if let tags = request.headers.clientValue(.ifNoneMatch), EntityTags.noneMatch(tags, current: entityTag) {
            return HTTPResponse(status: .notModified, headers: ["ETag": entityTag])
        }
        return HTTPResponse.json(recordBytes(records, entity: entity), headers: ["ETag": entityTag])
    }

    /// The one record of `records` as its answer's body.
    private func recordBytes(_ records: StoredRecords, entity: EntityDescription) -> [UInt8] {
        var writer = JSONWriter(capacity: 128 + 32 * (entity.attributes.count + entity.relationships.count))
        records.write(0, keys: keys(entity), to: &writer)
        return writer.bytes
    }

    // MARK: PATCH /{collection}/{id}

    func update(_ request: HTTPRequest) throws -> HTTPResponse {
        let entity = try request.entity(in: model)
        let id = try request.objectID(of: entity)
        try request.requireJSONBody()
        try checkWidth(request.body)
        var body = try readBody(request.body.isEmpty ? Array("{}".utf8) : request.body, entity: entity, mode: .update)
        let input = body.input
        if let claimed = input.claimedID, claimed != id {
            body.problems.append(
                FieldError(field: "_id", message: "the body names \(entity.name) \(claimed) but the URL \(entity.name) \(id); _id cannot be changed"))
        }
        // After the body: a body that can never apply is what to fix first, whatever the
        // precondition says (a stale version is a 412 only for a request that could succeed).
        if !body.problems.isEmpty { throw try refusal(body) }
        let expected = try RecordsController.expectedVersion(request)
        let records: StoredRecords
        do {
            records = try saveUpdate(input, expectedVersion: expected, id: id, entity: entity)
        } catch let error as StoreError {
            guard case .danglingReference = error else { throw error }
            throw try refusal(body, otherwise: error)
        }
        guard records.count == 1 else { throw Problem.notFound("\(entity.name) \(id) does not exist") }
        return HTTPResponse.json(recordBytes(records, entity: entity), headers: ["ETag": records.entityTag(0)])
    }

    /// Saves a PATCH's changes and reads the record back, in one write transaction.
    private func saveUpdate(_ input: RecordInput, expectedVersion: Int64?, id: Int64, entity: EntityDescription) throws -> StoredRecords {
        let inlineBinaryBytes = inlineBinaryBytes, model = model
        return try store.write { context -> StoredRecords in
            if let claimed = input.claimedVersion, let current = try context.version(entity: entity.name, id: id), claimed != current {
                // A body's _version is not a precondition (that is If-Match, 412) but a value that
                // cannot be set: naming another one is an invalid field.
                throw Problem.validationFailed([
                    FieldError(
                        field: "_version",
                        message:
                            "the body names _version \(claimed) but \(entity.name) \(id) is at version \(current); _version cannot be set (use If-Match to update only an unchanged record)"
                    )
                ])
            }
            let resolved = try input.resolvingHierarchyFields(in: context, model: model)
            _ = try context.save(resolved.changeSet(updating: id, expectedVersion: expectedVersion))
            return try context.fetchRecords(entity: entity.name, ids: [id], inlineBinaryBytes: inlineBinaryBytes)
        }
    }

    // MARK: DELETE /{collection}/{id}

    func delete(_ request: HTTPRequest) throws -> HTTPResponse {
        let entity = try request.entity(in: model)
        let id = try request.objectID(of: entity)
        let expected = try RecordsController.expectedVersion(request)
        _ = try store.write { context in
            try context.save(ChangeSet(deletes: [ChangeSet.Delete(entity: entity.name, id: id, expectedVersion: expected)]))
        }
        return HTTPResponse(status: .noContent)
    }

    /// `If-Match: "3"` → 3; `*` or no header → no check (RFC 9110 §13.1.1).
    static func expectedVersion(_ request: HTTPRequest) throws(Problem) -> Int64? {
        guard let value = request.headers.clientValue(.ifMatch)?.trimmingCharacters(in: .whitespaces), value != "*" else { return nil }
        let versions = EntityTags.versions(value)
        guard versions.count == 1 else {
            throw Problem(code: .badRequest, detail: "If-Match must carry one entity tag as returned in ETag, e.g. \"3\"; got \(value)")
        }
        // RFC 9110 §13.1.1: If-Match compares strongly, so a well-formed weak tag never matches.
        if value.hasPrefix("W/") {
            throw Problem.preconditionFailed("If-Match compares entity tags strongly: send the ETag as returned, e.g. \"3\", not \(value)")
        }
        return versions[0]
    }
}
