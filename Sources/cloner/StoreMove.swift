import ArgumentParser
import ClonerClone
import ClonerStore
import Foundation

/// `cloner export --all` and `cloner import --all`: a whole store moved through a streamed
/// document (`StoreDocument`), ids, versions, join order and blobs kept, each section's count
/// and checksum printed on standard error — the same lines on both sides, so the two outputs
/// compare with `diff`. The service's own tables (jobs, idempotency answers, leases) stay behind.
enum StoreMove {
    static func exportAll(_ options: StoreOptions, output: String?) throws {
        let (_, _, store) = try TravelCommandSupport.open(options)
        let handle = try TravelCommandSupport.outputHandle(output)
        let summaries = try store.read { context in
            try StoreDocumentExporter().run(in: context) { bytes in try handle.write(contentsOf: bytes) }
        }
        try handle.synchronize()
        report(summaries)
    }

    static func importAll(_ options: StoreOptions, input: String?) throws {
        let (_, _, store) = try TravelCommandSupport.open(options)
        do {
            let handle: FileHandle
            if let input, input != "-" {
                handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
            } else {
                handle = FileHandle.standardInput
            }
            let summaries = try store.write { context in
                var importer = try StoreDocumentImporter(context: context)
                while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                    try importer.feed(Array(chunk))
                }
                return try importer.finish()
            }
            report(summaries)
        } catch let error as StoreDocumentError {
            throw fail(error)
        } catch let error as StoreTransferError {
            throw fail(error)
        } catch let error as GraphImportError {
            throw fail(error)
        } catch let error as StoreError {
            throw fail(error)
        }
    }

    private static func report(_ summaries: [StoreDocumentSummary]) {
        FileHandle.standardError.write(Data(summaries.map { "\($0)\n" }.joined().utf8))
    }

    private static func fail(_ error: any Error) -> ExitCode {
        FileHandle.standardError.write(Data("cloner import: \(error); nothing was written\n".utf8))
        return ExitCode(1)
    }
}
