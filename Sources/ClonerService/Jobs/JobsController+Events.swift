import ClonerHTTP
import ClonerStore
import Foundation

/// `GET /jobs/{id}/events`: a job watched as a `text/event-stream` (HTML Living Standard, server-sent
/// events). `event: progress` with the job document each time its progress advances; a
/// `: heartbeat` comment when nothing else was sent for a while, so proxies keep the connection;
/// last an event named after the final status (`succeeded`, `failed`, `cancelled`) with the job
/// document, and the stream ends. A job of this process is watched in memory; one of another
/// replica through its row, read on a read worker. A client that goes away makes the next write
/// throw, which ends the watch.
extension JobsController {
    /// How often a job of this process is looked at: progress events come at most this often.
    static let progressInterval: Duration = .milliseconds(100)
    /// How often the row of a job of another replica is read.
    static let rowInterval: Duration = .milliseconds(500)
    /// How long a stream stays silent before a heartbeat comment.
    static let heartbeatInterval: Duration = .seconds(15)

    /// On a read worker: 404 for no such job; otherwise the stream, which answers at once for a
    /// finished job.
    func events(_ request: HTTPRequest) throws -> HTTPResponse {
        let id = try JobsController.jobID(request)
        let first = try store.read { try $0.job(id: id) }
        guard first != nil || jobs.job(id) != nil else { throw Problem.notFound("no job \(id)") }
        let headers: HTTPHeaders = ["Content-Type": "text/event-stream", "Cache-Control": "no-store"]
        return .streaming(headers: headers) { [self] writer in
            try await watch(id, first: first, writer: writer)
        }
    }

    private func watch(_ id: String, first: JobRecord?, writer: HTTPBodyWriter) async throws {
        var record = first
        var lastProgress: (planned: Int, written: Int)?
        var lastWrite = ContinuousClock.now
        while true {
            if let job = jobs.job(id), job.finishedAt == nil {
                let progress = (planned: job.progress.planned, written: job.progress.written)
                if lastProgress.map({ $0 != progress }) ?? true, let live = liveDocument(id) {
                    lastProgress = progress
                    try await writer.write(JobsController.event("progress", live))
                    lastWrite = .now
                }
                try await Task.sleep(for: JobsController.progressInterval)
            } else {
                if record == nil || !(record?.status.isFinished ?? false) { record = try await readRow(id) }
                guard let current = record else { return }
                if current.status.isFinished {
                    try await writer.write(JobsController.event(current.status.rawValue, document(current)))
                    return
                }
                // Another replica's job (or this one's, between its end and its final row).
                record = nil
                try await Task.sleep(for: jobs.job(id) == nil ? JobsController.rowInterval : JobsController.progressInterval)
            }
            if ContinuousClock.now - lastWrite >= JobsController.heartbeatInterval {
                try await writer.write(": heartbeat\n\n")
                lastWrite = .now
            }
        }
    }

    private func readRow(_ id: String) async throws -> JobRecord? {
        try await withCheckedThrowingContinuation { continuation in
            readWorkers.submit { [store] in
                continuation.resume(with: Result { try store.read { try $0.job(id: id) } })
            }
        }
    }

    /// One event: its name and the document as its one `data` line (JSON holds no raw newline).
    static func event(_ name: String, _ document: [UInt8]) -> [UInt8] {
        Array("event: \(name)\ndata: ".utf8) + document + Array("\n\n".utf8)
    }
}
