@testable import ClonerService
import ClonerModel
import Foundation
import Logging
import Testing

/// Every test writes through a real pipe with `write(2)` and reads the other end.
@Suite struct JSONLogHandlerTests {
    final class PipeCapture: Sendable {
        let readEnd: Int32
        let writeEnd: Int32

        init() throws {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
            readEnd = fds[0]
            writeEnd = fds[1]
            // Non-blocking reads: a test that expects more lines than were written fails instead of hanging.
            _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        }

        /// Everything written so far, split into lines (the pipe must not be left holding a partial line).
        func lines() -> [String] {
            var collected: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(readEnd, &buffer, buffer.count)
                if count <= 0 { break }
                collected.append(contentsOf: buffer[0..<count])
            }
            return String(decoding: collected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }

        deinit {
            close(readEnd)
            close(writeEnd)
        }
    }

    func parse(_ line: String) throws -> [String: Any] {
        try foundationJSON(Array(line.utf8))
    }

    @Test func writesOneJSONLinePerRecordImmediately() throws {
        let capture = try PipeCapture()
        let logger = Logger(label: "cloner.test") { JSONLogHandler(label: $0, level: .info, fileDescriptor: capture.writeEnd) }
        logger.debug("hidden: below the level")
        logger.info("store opened", metadata: ["path": "data/x.sqlite", "db": ["tables": .stringConvertible(3), "wal": .stringConvertible(true)]])
        let lines = capture.lines()
        #expect(lines.count == 2 && lines[1].isEmpty, "one line, newline-terminated: \(lines)")
        let object = try parse(lines[0])
        #expect(object["level"] as? String == "info")
        #expect(object["message"] as? String == "store opened")
        #expect(object["label"] as? String == "cloner.test")
        #expect(object["path"] as? String == "data/x.sqlite")
        #expect(object["db.tables"] as? Int == 3, "nested metadata is flattened, numbers stay numbers")
        #expect(object["db.wal"] as? Bool == true)
        let timestamp = try #require(object["timestamp"] as? String)
        let parsed = try #require(RFC3339Timestamp.parse(timestamp))
        #expect(abs(parsed - RFC3339Timestamp.nowMilliseconds()) < 60_000)
        #expect(timestamp.hasSuffix("Z") && timestamp.count == 24)
    }

    @Test func handlerMetadataRecordMetadataAndReservedKeys() throws {
        let capture = try PipeCapture()
        var logger = Logger(label: "t") { JSONLogHandler(label: $0, fileDescriptor: capture.writeEnd) }
        logger[metadataKey: "service"] = "cloner"
        logger[metadataKey: "shared"] = "handler"
        logger.warning("line \"quoted\"\nsecond", metadata: ["shared": "record", "message": "clash", "list": ["a", "b"]])
        let lines = capture.lines()
        let object = try parse(lines[0])
        #expect(object["message"] as? String == "line \"quoted\"\nsecond")
        #expect(object["metadata.message"] as? String == "clash")
        #expect(object["service"] as? String == "cloner")
        #expect(object["shared"] as? String == "record")
        #expect(object["list"] as? [String] == ["a", "b"])
        #expect(object["level"] as? String == "warning")
    }

    @Test func concurrentLoggersNeverInterleaveLines() async throws {
        let capture = try PipeCapture()
        let logger = Logger(label: "c") { JSONLogHandler(label: $0, fileDescriptor: capture.writeEnd) }
        // Lines longer than PIPE_BUF (4096) are where unsynchronised writers would interleave.
        let long = String(repeating: "x", count: 5000)
        // The pipe buffer (64 KiB) must hold everything: 8 tasks × 1 line of ~5 KiB.
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask { logger.info("\(long)", metadata: ["task": .stringConvertible(task)]) }
            }
        }
        let lines = capture.lines().filter { !$0.isEmpty }
        #expect(lines.count == 8)
        var tasks = Set<Int>()
        for line in lines {
            let object = try parse(line)
            #expect((object["message"] as? String)?.count == 5000)
            tasks.insert(try #require(object["task"] as? Int))
        }
        #expect(tasks == Set(0..<8))
    }

    @Test func accessLogRecordLineAndMetadata() throws {
        let record = AccessLogRecord(
            method: "POST", path: "/notes/42/clone", status: 201, durationMilliseconds: 12.3456789,
            bytes: 180, bytesReceived: 4096, requestID: "abc", remote: "127.0.0.1:5000")
        let line = String(decoding: record.jsonLine(timestampMilliseconds: 1_795_292_129_123), as: UTF8.self)
        #expect(
            line
                == #"{"timestamp":"2026-11-21T20:15:29.123Z","level":"info","message":"request","method":"POST","path":"/notes/42/clone","status":201,"duration_ms":12.346,"bytes":180,"bytes_received":4096,"request_id":"abc","remote":"127.0.0.1:5000"}"#
                + "\n")

        let capture = try PipeCapture()
        let logger = Logger(label: "access") { JSONLogHandler(label: $0, fileDescriptor: capture.writeEnd) }
        record.log(to: logger)
        JSONLogHandler.emit(line: record.jsonLine(), fileDescriptor: capture.writeEnd)
        let lines = capture.lines().filter { !$0.isEmpty }
        #expect(lines.count == 2)
        for line in lines {
            let object = try parse(line)
            #expect(object["message"] as? String == "request")
            #expect(object["status"] as? Int == 201)
            #expect(object["duration_ms"] as? Double == 12.346)
            #expect(object["request_id"] as? String == "abc")
            #expect(object["path"] as? String == "/notes/42/clone")
        }
    }
}
