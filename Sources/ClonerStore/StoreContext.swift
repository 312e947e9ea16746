import ClonerModel
import Foundation

/// The store's operations inside one transaction of `IncrementalStore.read` or `.write`, the same
/// on every backend (docs/architecture.md#layers: the clone and service layers see no table, column or SQL).
///
/// The service's own tables (idempotency keys, jobs, leases) have a protocol of their own,
/// `ServiceTablesContext`, which every context also answers: one transaction can hold a clone and
/// the job row or answer that records it.
///
/// Not `Sendable`: a context wraps a connection that belongs to the calling thread for the
/// duration of the body, and must not leave it.
public protocol StoreContext: ServiceTablesContext {
    var schema: StoreSchema { get }

    // MARK: Fetch

    /// The `_id`s matching a request, in its order: one query, however many objects.
    func fetchIDs(_ request: FetchRequest) throws -> [Int64]
    /// The objects matching a request, in its order, each with its position in that order (its
    /// sort-key values and `_id`) for a cursor that continues after it: one query.
    func fetchPositions(_ request: FetchRequest) throws -> [(id: Int64, position: FetchRequest.Position)]
    func fetchObject(entity: String, id: Int64) throws -> StoredObject?
    /// Objects of one entity by `_id`, in the order of `ids`, missing ones left out.
    func fetchObjects(entity: String, ids: [Int64]) throws -> [StoredObject]
    /// The destinations of `relationship` for each source, in its order.
    func destinationIDs(of relationship: RelationshipDescription, for sources: [Int64]) throws -> [Int64: [Int64]]
    /// An object's row version, or nil when it does not exist.
    func version(entity: String, id: Int64) throws -> Int64?
    /// Which of `ids` exist in `entity`: one query, however many ids.
    func existingIDs(entity: String, ids: [Int64]) throws -> Set<Int64>
    /// Which of `entities` (the concrete entities of one inheritance hierarchy, whose `_id`s are
    /// one space) holds each of `ids`; ids none holds are left out. One query for them all
    /// (docs/architecture.md#relationships-into-a-hierarchy).
    func concreteEntities(ofIDs ids: [Int64], among entities: [String]) throws -> [Int64: String]
    /// Records of one entity by `_id`, in the order of `ids`, missing ones left out, held by
    /// position for an answer that writes them all (the read routes): one query for the rows
    /// (which reads binary values of up to 16 KiB) plus one per relationship stored elsewhere, and
    /// one per binary attribute with larger values to read. Binary values are kept in record order
    /// while their sizes add up to at most `inlineBinaryBytes` (`Int.max`: all of them); the rest
    /// stay in the store, named in `StoredRecords.storedBinaries`.
    func fetchRecords(entity: String, ids: [Int64], inlineBinaryBytes: Int) throws -> StoredRecords
    /// One page of `request`: at most `pageSize` records in its order, whether more follow and, if
    /// so, the position of the page's last record (`request.limit` is ignored), its binary values
    /// read as `fetchRecords` reads them. The page ends early, before the record whose text and
    /// json values would take the page's past `textBytes` (it holds one record at least), so no
    /// page holds more text than that however large the values a store keeps. Throws
    /// `StoreError.notFound` for an `after` that names a missing record under an order other than
    /// `_id`, as `fetchPositions`. Written once over SQL (`SQLStoreContext+Pages`): the page, its
    /// text sizes and its records in one query.
    func fetchRecordPage(_ request: FetchRequest, pageSize: Int, inlineBinaryBytes: Int, textBytes: Int) throws -> RecordPage
    /// How many objects of `request.entity` its filters match, whatever its position, order and
    /// limit: one query, which visits every matching row (a list's `count=true`).
    func countRecords(_ request: FetchRequest) throws -> Int64
    /// The bytes of the text and json values of each of objects `ids` of `entity`, in the order of
    /// `ids` (0 for a missing one): one query, without reading the values.
    func textBytes(entity: String, ids: [Int64]) throws -> [Int]

    // MARK: Export (docs/architecture.md#graphs-that-travel)

    /// Records of `entity` by `_id` (distinct) for an export, into `batch`, whose buffers are
    /// reused: one query for the rows plus one per relationship stored elsewhere. The shared
    /// default goes through `fetchRecords`.
    func readGraphRecords(entity: String, ids: [Int64], into batch: GraphRecordBatch) throws
    /// The destinations of `relationship` for each of `sources` (distinct), in its order, into
    /// `lists` (one list per source): what `destinationIDs` answers, without a dictionary. The
    /// shared default goes through `destinationIDs`.
    func readDestinations(of relationship: RelationshipDescription, for sources: [Int64], into lists: inout GraphDestinations) throws

    // MARK: Save

    /// Applies inserts, updates and deletes (with delete rules) together.
    func save(_ changes: ChangeSet) throws -> SaveResult

    // MARK: Blobs (docs/architecture.md#shared-blobs)

    /// The blob `attribute` (a binary attribute of `entity`) of object `id` refers to; nil when
    /// the object is missing or its value is null.
    func blobReference(entity: String, id: Int64, attribute: String) throws -> BlobReference?
    /// Hands bytes `range` (within the blob's size) of blob `hash` to `body`, at most one chunk
    /// at a time. False when no such blob exists (any more).
    func readBlob(hash: Data, range: Range<Int64>, _ body: (Data) throws -> Void) throws -> Bool
    /// What is wrong with the store's blobs: references without a blob, blobs without a
    /// reference, blobs whose bytes do not match their key; then the uploads not finished
    /// (`BlobProblem.pendingUpload`, no inconsistency), which no other check counts. At most
    /// `limit` in all; empty when all is well and no upload is pending.
    func checkBlobs(limit: Int) throws -> [BlobProblem]

    /// A streamed upload (docs/architecture.md#shared-blobs) writes its chunks, as they arrive,
    /// under a pending blob row with a random `key` (size -1, referenced by nothing), each
    /// chunk in a short transaction of its own; `finishUpload` then gives the blob its real key
    /// (or drops it for an equal blob already stored) and `setBlob` points the record at it.
    func beginUpload(key: Data) throws
    func appendUpload(key: Data, number: Int64, bytes: Data) throws
    /// Makes pending blob `key` the blob `hash` of `size` bytes — or, when that blob is stored
    /// already, drops the pending one — holding the blob for this transaction.
    func finishUpload(key: Data, hash: Data, size: Int64) throws
    /// Drops a pending upload (its request failed).
    func discardUpload(key: Data) throws
    /// The pending uploads (by key) and how many chunks each has written so far, for the sweep of
    /// uploads whose process died (`AbandonedUploadSweeper`).
    func pendingUploads() throws -> [Data: Int64]
    /// Points binary `attribute` of object `id` at stored blob `hash` (checking `expectedVersion`
    /// when given), sweeps the blob it referred to if nothing else does, and returns the
    /// object's new version. Throws `notFound`, `versionConflict`.
    func setBlob(entity: String, id: Int64, attribute: String, hash: Data, expectedVersion: Int64?) throws -> Int64

    // MARK: Clone

    /// Runs a clone's bulk copy in this transaction, in the backend's own SQL: a few statements
    /// per entity of the model, never one per object. Throws `StoreError.notFound` for a missing
    /// root, `.missingRootLink` for a `rootValues`/`rootLinks` id that does not exist,
    /// `.tooLarge` beyond `plan.maximumObjects`, unique violations as `.uniqueViolation` /
    /// `.uniqueTogetherViolation`.
    func copyGraph(_ plan: GraphCopyPlan, now: Date, progress: GraphCopyProgress) throws -> GraphCopyResult

    // MARK: Lineage (docs/architecture.md#lineage)

    /// Notes that each of `cloneIDs` (objects of `entity`, the roots of one clone's copies) was
    /// cloned from `sourceID` at `date`: one statement, however many copies. A record read then
    /// carries it (`StoredRecords.clonedFrom`); deleting the clone forgets it, deleting the source
    /// does not.
    func recordClones(entity: String, sourceID: Int64, cloneIDs: [Int64], at date: Date) throws
    /// Up to `limit` clones of object `sourceID` of `entity` still stored, newest first (by
    /// creation time, then `_id`), after `position` when given: one query per page, whether or not
    /// the source still exists.
    func clones(entity: String, sourceID: Int64, after position: CloneListPosition?, limit: Int) throws -> [CloneLineage]
    /// The source of each of objects `ids` of `entity` that is a clone, by clone `_id` (none for
    /// the others): one query, for a batch of an export.
    func clonedFrom(entity: String, ids: [Int64]) throws -> [Int64: Int64]

    // MARK: rows, transfer and import

    /// This context as the store's row-level work runs on it (a whole-store move, a graph
    /// import's rows and natural keys): a requirement, so a backend that lacks it does not compile.
    var rowAccess: StoreRowAccess { get }
}

extension StoreContext {
    public var model: DataModel { schema.model }

    /// Records with every binary value read.
    public func fetchRecords(entity name: String, ids: [Int64]) throws -> StoredRecords {
        try fetchRecords(entity: name, ids: ids, inlineBinaryBytes: .max)
    }

    /// A page with every binary value read and no bound on its text.
    public func fetchRecordPage(_ request: FetchRequest, pageSize: Int) throws -> RecordPage {
        try fetchRecordPage(request, pageSize: pageSize, inlineBinaryBytes: .max, textBytes: .max)
    }
}
