import ArgumentParser
import ClonerClone
import ClonerStore
import ClonerTravel
import Foundation

/// `cloner export --all` and `cloner import --all`: a whole store moved through a streamed
/// document (`StoreDocument`), ids, versions, join order and blobs kept, each section's count
/// and checksum printed on standard error — the same lines on both sides, so the two outputs
/// compare with `diff`. The service's own tables (jobs, idempotency answers, leases) stay behind.
enum StoreMove {
    /// A read or write the store ran a second time (PostgreSQL retries a read whose connection
    /// was lost, and a write that hit a serialization failure): the document streams once, so a
    /// second run would write it twice or find its input spent. The command stops instead.
    struct RunTwice: Error, CustomStringConvertible {
        let command: String
        var description: String {
            let outcome =
                command == "export"
                ? "the document written so far has no end line, and an import refuses it" : "the store was left as it was"
            return "the database asked to run the \(command) again (a lost connection or a conflict); \(outcome): run the command again"
        }
    }

    static func exportAll(_ options: StoreOptions, output: String?) throws {
        let (_, _, store) = try TravelCommandSupport.open(options)
        let handle = try TravelCommandSupport.outputHandle(output)
        var runs = 0
        let summaries = try store.read { context in
            runs += 1
            guard runs == 1 else { throw RunTwice(command: "export") }
            return try StoreDocumentExporter().run(in: context) { bytes in try handle.write(contentsOf: bytes) }
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
            var runs = 0
            let summaries = try store.write { context in
                runs += 1
                guard runs == 1 else { throw RunTwice(command: "import") }
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
        } catch let error as RunTwice {
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
