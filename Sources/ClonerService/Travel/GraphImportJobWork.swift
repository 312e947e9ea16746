import ClonerClone
import ClonerHTTP
import ClonerStore
import ClonerTravel
import Foundation

/// A checked graph document as an asynchronous job's work (`POST /{collection}/import` with
/// `Prefer: respond-async`, `JobRunner`): written on a write worker in one transaction with its
/// `succeeded` row. Until it ends it shows in the job registry as a `GraphImportJob`, which
/// answers its live progress and makes the shutdown drain wait for it.
struct GraphImportJobWork: JobWork {
    let document: GraphImporter
    let store: IncrementalStore
    let writeWorkers: StoreWorkers
    /// The import's turn among `maxConcurrentImports`, given back when the job has ended.
    let slot: ImportSlot
    let requestJSON: Data

    var name: String { "import" }

    init(document: GraphImporter, collection: String, store: IncrementalStore, writeWorkers: StoreWorkers, slot: ImportSlot) {
        self.document = document
        self.store = store
        self.writeWorkers = writeWorkers
        self.slot = slot
        var described = JSONWriter(capacity: 64)
        described.beginObject()
        described.key("import"); described.string("/\(collection)/import")
        described.endObject()
        self.requestJSON = Data(described.bytes)
    }

    func start(_ job: AsynchronousJob) -> any RunningJob {
        let running = GraphImportJob(id: job.id, planned: document.plannedObjects)
        writeWorkers.submit { [self] in
            defer { slot.release() }
            do {
                try job.recordRunning()
                running.markRunning()
                try store.write { context in
                    try job.hold(in: context)
                    let outcome = try document.run(in: context, now: Date(), progress: running.progress)
                    try job.recordSuccess(outcome.jsonBytes(), in: context)
                }
                running.finish(.succeeded)
                job.finish(failure: nil)
            } catch {
                running.finish(job.wasCancelled ? .cancelled : .failed)
                job.finish(failure: error)
            }
        }
        return running
    }
}
