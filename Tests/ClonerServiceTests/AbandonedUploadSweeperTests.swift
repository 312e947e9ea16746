import ClonerModel
import ClonerServiceTestSupport
import ClonerStore
import ClonerTestSupport
import Foundation
import Testing

@testable import ClonerService

/// An upload whose process died leaves a pending blob that nothing refers to; the housekeeping's
/// sweep removes it once it made no progress between two sweeps, and leaves a live one alone.
@Suite struct AbandonedUploadSweeperTests {
    @Test(arguments: StoreBackendKind.available) func aStalledUploadGoesAtTheSecondSweepALiveOneStays(_ kind: StoreBackendKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let location: StoreLocation =
            kind == .sqlite
            ? .sqlite(path: directory.url.appendingPathComponent("store.sqlite").path)
            : .postgreSQL(uri: try PostgreSQLTestCluster.shared.createDatabase().uri)
        let model = try ModelLoader.load(contentsOf: URL(fileURLWithPath: Repository.sampleModelPath))
        let store = try IncrementalStore(location: location, model: model)
        let stalled = Data((0..<32).map { UInt8($0) })
        let live = Data((0..<32).map { UInt8(255 - $0) })
        for key in [stalled, live] {
            try store.write { context in
                try context.beginUpload(key: key)
                try context.appendUpload(key: key, number: 0, bytes: Data(repeating: 7, count: 16))
            }
        }
        #expect(try !store.read { try $0.checkBlobs(limit: 10) }.isEmpty, "two pending blobs, referenced by nothing")

        let sweeper = AbandonedUploadSweeper(store: store)
        #expect(try sweeper.sweep() == 0, "the first sweep only notes what it saw")
        try store.write { try $0.appendUpload(key: live, number: 1, bytes: Data(repeating: 8, count: 16)) }
        #expect(try sweeper.sweep() == 1, "the upload that wrote nothing since is removed")
        let pending = try store.read { try $0.pendingUploads() }
        #expect(pending == [live: 2], "the live upload and its chunks stay")
        #expect(try sweeper.sweep() == 1, "the live one, stalled in turn, goes at the next sweep")
        #expect(try store.read { try $0.checkBlobs(limit: 10) }.isEmpty)
    }
}
