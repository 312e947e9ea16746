import ClonerClone
import ClonerModel
import ClonerStore

/// Writes the graph a clone would copy as a `GraphFormat` document, inside the caller's read
/// transaction: the walk first (`_id`s only), then the objects a batch at a time into buffers
/// every batch reuses (`readGraphRecords`), so memory holds one batch, never the graph, and no
/// row costs a dictionary. Bytes go to `emit` in pieces of about `flushBytes`.
public struct GraphExporter {
    public let plan: ClonePlan
    /// Objects fetched per query. Objects of entities with binary attributes count against a
    /// second bound that starts at `binaryBatchSize` and adapts to the bytes a batch held (doubled
    /// while batches hold under 4 MiB of binary values, halved above 16 MiB), so small blobs are
    /// read in large batches and large ones a few at a time.
    public var batchSize = 1000
    public var binaryBatchSize = 4
    /// Bytes per piece handed to `emit`: each piece of a served export is one hand-over to the
    /// connection's thread and back, so fewer, larger pieces (64 KiB before) cost less switching.
    /// A piece ends at a line's end, or inside a binary value streamed from the store.
    public var flushBytes = 256 * 1024

    public init(plan: ClonePlan) {
        self.plan = plan
    }

    /// What an export wrote.
    public struct Summary: Sendable, Hashable {
        public var objects: Int
        public var references: Int
        public var bytes: Int
    }

    /// The export's steps: the walk, the header, each batch's records, reference lines and object
    /// lines (`GraphExportWriter`), the end line.
    public func run(in context: any StoreContext, emit: ([UInt8]) throws -> Void) throws -> Summary {
        let walk: GraphWalk
        do {
            walk = try context.walkGraph(plan.copy, batchSize: batchSize)
        } catch StoreError.notFound(let entity, let id) {
            throw CloneError.rootNotFound(entity: entity, id: id)
        } catch StoreError.tooLarge(let objects, let limit) {
            throw CloneError.tooLarge(objects: objects, limit: limit)
        }
        // The writer keeps `emit` only while this call runs.
        return try withoutActuallyEscaping(emit) { emit in
            var export = GraphExportWriter(exporter: self, context: context, walk: walk, emit: emit)
            try export.writeHeader()
            var start = 0
            while start < walk.objects.count {
                let batch = export.nextBatch(from: start)
                start = batch.endIndex
                try export.read(batch)
                try export.writeReferences(of: batch)
                try export.writeObjects(batch)
            }
            return try export.finish()
        }
    }
}
