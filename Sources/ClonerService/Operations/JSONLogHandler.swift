import ClonerModel
import ClonerConcurrency
import Foundation
import Logging

/// A swift-log backend writing one JSON object per record on one line (docs/architecture.md#logs-and-metrics).
///
/// Each line goes out with a direct `write(2)` on the file descriptor as the record is logged:
/// nothing sits in a stdio buffer, so the access line of a request is visible to `docker logs`
/// or a collector as soon as the request ends, and nothing is lost when the process is killed.
/// The line is built with `JSONWriter` and the timestamp by `RFC3339Timestamp`: no
/// `JSONSerialization` and no `DateFormatter` per line.
///
/// Line layout: `timestamp`, `level`, `message`, `label`, then metadata (handler, provider,
/// record; later wins) sorted by key. Nested metadata dictionaries are flattened to dotted keys
/// (`db.path`) so log queries need no JSON paths. A metadata key clashing with one of the four
/// fixed keys is written as `metadata.<key>` so no line has a duplicate key.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let output: LineOutput

    /// - Parameters:
    ///   - fileDescriptor: where lines go; standard output by default, a pipe in tests.
    public init(
        label: String, level: Logger.Level = .info, fileDescriptor: Int32 = STDOUT_FILENO,
        metadataProvider: Logger.MetadataProvider? = nil
    ) {
        self.label = label
        self.logLevel = level
        self.metadataProvider = metadataProvider
        self.output = LineOutput.shared(for: fileDescriptor)
    }

    /// Installs the handler for every `Logger` of the process. `LoggingSystem.bootstrap` may run
    /// only once per process, so this is for the executable, not for tests.
    public static func bootstrap(level: Logger.Level, fileDescriptor: Int32 = STDOUT_FILENO) {
        LoggingSystem.bootstrap { label in JSONLogHandler(label: label, level: level, fileDescriptor: fileDescriptor) }
    }

    /// Writes a line rendered elsewhere (e.g. `AccessLogRecord.jsonLine`) through the same
    /// serialised output as the handlers, so it never interleaves with their lines.
    public static func emit(line: [UInt8], fileDescriptor: Int32 = STDOUT_FILENO) {
        LineOutput.shared(for: fileDescriptor).write(line)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let recordMetadata = event.metadata { merged.merge(recordMetadata) { _, new in new } }
        let line = Self.line(
            timestampMilliseconds: RFC3339Timestamp.nowMilliseconds(), level: event.level,
            message: event.message.description, label: label, metadata: merged)
        output.write(line)
    }

    static let fixedKeys: Set<String> = ["timestamp", "level", "message", "label"]

    /// The bytes of one line, newline included.
    static func line(
        timestampMilliseconds: Int64, level: Logger.Level, message: String, label: String,
        metadata: Logger.Metadata
    ) -> [UInt8] {
        var writer = JSONWriter(capacity: 160 + message.utf8.count + metadata.count * 32)
        writer.beginObject()
        writer.key("timestamp"); writer.date(millisecondsSince1970: timestampMilliseconds)
        writer.key("level"); writer.string(level.rawValue)
        writer.key("message"); writer.string(message)
        writer.key("label"); writer.string(label)
        if !metadata.isEmpty {
            var flat: [(String, Logger.Metadata.Value)] = []
            flatten(metadata, prefix: "", into: &flat)
            flat.sort { $0.0 < $1.0 }
            for (key, value) in flat {
                writer.key(fixedKeys.contains(key) ? "metadata.\(key)" : key)
                writeValue(value, to: &writer)
            }
        }
        writer.endObject()
        var bytes = writer.bytes
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    private static func flatten(_ metadata: Logger.Metadata, prefix: String, into flat: inout [(String, Logger.Metadata.Value)]) {
        for (key, value) in metadata {
            let path = prefix.isEmpty ? key : "\(prefix).\(key)"
            if case .dictionary(let nested) = value {
                flatten(nested, prefix: path, into: &flat)
            } else {
                flat.append((path, value))
            }
        }
    }

    /// Arrays stay arrays; dictionaries inside arrays stay objects (there is no key to flatten them under).
    private static func writeValue(_ value: Logger.Metadata.Value, to writer: inout JSONWriter) {
        switch value {
        case .string(let text): writer.string(text)
        case .stringConvertible(let convertible):
            // Numbers and booleans keep their JSON type so log queries can compare them.
            switch convertible {
            case let number as Int: writer.integer(number)
            case let number as Int64: writer.integer(number)
            case let number as Double: writer.double(number)
            case let flag as Bool: writer.bool(flag)
            default: writer.string(convertible.description)
            }
        case .array(let elements):
            writer.beginArray()
            for element in elements { writeValue(element, to: &writer) }
            writer.endArray()
        case .dictionary(let members):
            writer.beginObject()
            for key in members.keys.sorted() {
                writer.key(key)
                writeValue(members[key]!, to: &writer)
            }
            writer.endObject()
        }
    }
}

extension JSONLogHandler {
    /// The file descriptor a handler writes to, shared by every handler on it.
    ///
    /// The lock makes each line a single uninterrupted sequence of `write(2)` calls, so lines from
    /// concurrent requests never interleave even when a line exceeds `PIPE_BUF` or a write is
    /// partial; the only other state is the file's position, which the kernel keeps.
    final class LineOutput: Sendable {
        let fileDescriptor: Int32
        /// The descriptor again, to be written to only while it is held. (A lock around `Void`
        /// gave the thread sanitizer a zero-sized access it reported as unguarded.)
        private let writer: LockedValue<Int32>

        private init(fileDescriptor: Int32) {
            self.fileDescriptor = fileDescriptor
            writer = LockedValue(fileDescriptor)
        }

        private static let outputs = LockedValue<[Int32: LineOutput]>([:])

        /// One output (one lock) per descriptor, whichever handler copy or label writes to it.
        static func shared(for fileDescriptor: Int32) -> LineOutput {
            outputs.withLock { outputs in
                if let existing = outputs[fileDescriptor] { return existing }
                let output = LineOutput(fileDescriptor: fileDescriptor)
                outputs[fileDescriptor] = output
                return output
            }
        }

        func write(_ bytes: [UInt8]) {
            writer.withLock { descriptor in Self.write(bytes, to: descriptor) }
        }

        private static func write(_ bytes: [UInt8], to fileDescriptor: Int32) {
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let written = Foundation.write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if written > 0 {
                        offset += written
                    } else if written < 0 && errno == EINTR {
                        continue
                    } else {
                        return  // EPIPE, EBADF…: a log line is not worth crashing or spinning for.
                    }
                }
            }
        }
    }
}
