import ClonerModel
import Logging

/// What the access log says about one finished request (docs/architecture.md#logs-and-metrics).
///
/// Kept as a value so the HTTP layer's timing and byte counts can be handed to the service without
/// the service knowing sockets; `metadata` feeds `Logger` (one line through `JSONLogHandler`),
/// `jsonLine` renders the line directly with a fixed key order for callers that bypass swift-log.
public struct AccessLogRecord: Sendable, Hashable {
    public var method: String
    /// The request target's path (no query: queries may carry filter values that are personal data).
    public var path: String
    public var status: Int
    /// From the first byte of the request to the last byte of the answer handed to the kernel.
    public var durationMilliseconds: Double
    /// Bytes of the answer body.
    public var bytes: Int
    /// Bytes of the request body received (for a streamed upload cut short, as far as it got).
    public var bytesReceived: Int
    public var requestID: String
    /// The peer, `address:port`.
    public var remote: String

    public init(
        method: String, path: String, status: Int, durationMilliseconds: Double, bytes: Int, bytesReceived: Int = 0,
        requestID: String, remote: String
    ) {
        self.method = method
        self.path = path
        self.status = status
        self.durationMilliseconds = durationMilliseconds
        self.bytes = bytes
        self.bytesReceived = bytesReceived
        self.requestID = requestID
        self.remote = remote
    }

    /// The message of every access line, so log queries can select them.
    public static let message = "request"

    /// Milliseconds rounded to microseconds: enough for latency work, short on the line.
    var roundedDuration: Double { (durationMilliseconds * 1000).rounded() / 1000 }

    public var metadata: Logger.Metadata {
        [
            "method": .string(method),
            "path": .string(path),
            "status": .stringConvertible(status),
            "duration_ms": .stringConvertible(roundedDuration),
            "bytes": .stringConvertible(bytes),
            "bytes_received": .stringConvertible(bytesReceived),
            "request_id": .string(requestID),
            "remote": .string(remote),
        ]
    }

    /// Logs the record at `info` (the level access logs are filtered at).
    public func log(to logger: Logger) {
        logger.info("\(Self.message)", metadata: metadata)
    }

    /// The whole line, newline included, with keys in reading order:
    /// timestamp, level, message, method, path, status, duration_ms, bytes, bytes_received,
    /// request_id, remote.
    public func jsonLine(timestampMilliseconds: Int64 = RFC3339Timestamp.nowMilliseconds()) -> [UInt8] {
        var writer = JSONWriter(capacity: 224 + path.utf8.count)
        writer.beginObject()
        writer.key("timestamp"); writer.date(millisecondsSince1970: timestampMilliseconds)
        writer.key("level"); writer.string(Logger.Level.info.rawValue)
        writer.key("message"); writer.string(Self.message)
        writer.key("method"); writer.string(method)
        writer.key("path"); writer.string(path)
        writer.key("status"); writer.integer(status)
        writer.key("duration_ms"); writer.double(roundedDuration)
        writer.key("bytes"); writer.integer(bytes)
        writer.key("bytes_received"); writer.integer(bytesReceived)
        writer.key("request_id"); writer.string(requestID)
        writer.key("remote"); writer.string(remote)
        writer.endObject()
        var bytes = writer.bytes
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
