import ClonerServiceTestSupport
import ClonerTestSupport
import Foundation
import Testing

/// Binary values as resources (docs/architecture.md#shared-blobs), on the application in the test
/// process: GET with ETag, Range, 304 and HEAD; PUT streamed in, with Content-Length or chunked;
/// bad input named. `BlobResourceEndToEndTests` keeps what needs a process of its own.
@Suite("Service: binary values as resources")
struct BlobResourceServiceTests {
    typealias F = EndToEndFixture

    /// Deterministic bytes, so a failure is reproducible.
    static func bytes(_ count: Int, seed: Int = 1) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761 &+ seed) >> 7) }
    }

    static func sha256Hex(_ bytes: [UInt8]) throws -> String {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("b").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let output = try ShortCommand.run("/usr/bin/sha256sum", [path]).output
        return String(String(decoding: output, as: UTF8.self).prefix(64))
    }

    @Test(
        "GET serves the bytes with the hash as ETag, single ranges, 416, 304 and HEAD; bad input names the field",
        arguments: StoreBackendKind.available)
    func download(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            // Larger than one chunk (1 MiB): streamed.
            let value = Self.bytes(3 << 20 + 5)
            let created = try await client.create("notes", F.note(#""name":"pic","data":"\#(Data(value).base64EncodedString())""#))
            let id = try #require(F.int(created["_id"]))
            let whole = try await client.get("/notes/\(id)/data")
            #expect(whole.status == 200)
            #expect(whole.body == value)
            let tag = "\"\(try Self.sha256Hex(value))\""
            #expect(whole.header("ETag") == tag)
            #expect(whole.header("Accept-Ranges") == "bytes")
            #expect(whole.header("Content-Type") == "application/octet-stream")

            let head = try await client.request("HEAD", "/notes/\(id)/data")
            #expect(head.status == 200 && head.body.isEmpty && head.header("ETag") == tag)

            let cases: [(range: String, expected: Range<Int>)] = [
                ("bytes=10-19", 10..<20), ("bytes=-5", (value.count - 5)..<value.count),
                ("bytes=\(value.count - 10)-", (value.count - 10)..<value.count),
                ("bytes=1048570-2097160", 1_048_570..<2_097_161), ("bytes=5-99999999999", 5..<value.count),
            ]
            for (range, expected) in cases {
                let part = try await client.get("/notes/\(id)/data", headers: [("Range", range)])
                #expect(part.status == 206, "\(range)")
                #expect(part.body == Array(value[expected]), "\(range)")
                #expect(part.header("Content-Range") == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/\(value.count)", "\(range)")
            }
            // Several ranges: the whole, as RFC 9110 §14.2 allows; another unit: ignored.
            #expect(try await client.get("/notes/\(id)/data", headers: [("Range", "bytes=0-1,5-6")]).status == 200)
            #expect(try await client.get("/notes/\(id)/data", headers: [("Range", "items=0-1")]).status == 200)
            let past = try await client.get("/notes/\(id)/data", headers: [("Range", "bytes=\(value.count)-")])
            #expect(past.status == 416)
            #expect(past.header("Content-Range") == "bytes */\(value.count)")
            #expect(try past.json()["field"] as? String == "Range")

            let cached = try await client.get("/notes/\(id)/data", headers: [("If-None-Match", tag)])
            #expect(cached.status == 304 && cached.body.isEmpty && cached.header("ETag") == tag)

            // The same bytes on another record: the same ETag (one blob).
            let twin = try await client.create("notes", F.note(#""data":"\#(Data(value).base64EncodedString())""#))
            #expect(try await client.get("/notes/\(F.int(twin["_id"])!)/data", headers: [("Range", "bytes=0-0")]).header("ETag") == tag)

            for (path, status, field) in [
                ("/notes/\(id)/nope", 404, "nope"), ("/notes/\(id)/name", 404, "name"),
                ("/notes/\(F.int(twin["_id"])! + 100)/data", 404, nil),
            ] {
                let response = try await client.get(path)
                #expect(response.status == status, "\(path): \(response.text)")
                #expect(try response.json()["field"] as? String == field, "\(path): \(response.text)")
            }
            let empty = try await client.create("notes", F.note(#""name":"no data""#))
            let null = try await client.get("/notes/\(F.int(empty["_id"])!)/data")
            let nullField = try null.json()["field"] as? String
            #expect(null.status == 404 && nullField == "data")
            // The clone route keeps its literal segment.
            #expect(try await client.post("/notes/\(id)/clone", nil).status == 201)
        }
    }

    @Test(
        "If-Range: the current strong tag gets the range; a stale tag, a weak tag or a date gets the whole value",
        arguments: StoreBackendKind.available)
    func ifRange(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let client = service.client
            // A buffered value and a streamed one (past one chunk).
            for count in [100, 3 << 20 + 5] {
                let old = Self.bytes(count, seed: 1 << 10), value = Self.bytes(count, seed: 2 << 10)
                let created = try await client.create("notes", F.note(#""data":"\#(Data(value).base64EncodedString())""#))
                let path = "/notes/\(try #require(F.int(created["_id"])))/data"
                let tag = "\"\(try Self.sha256Hex(value))\"", staleTag = "\"\(try Self.sha256Hex(old))\""
                let resumed = try await client.get(path, headers: [("Range", "bytes=10-19"), ("If-Range", tag)])
                #expect(resumed.status == 206, "\(count): \(resumed.text.prefix(200))")
                #expect(resumed.body == Array(value[10..<20]), "\(count)")
                // The client's partial copy is of another value: part of this one would corrupt it.
                for validator in [staleTag, "W/\(tag)", "Wed, 21 Oct 2015 07:28:00 GMT", "\"\""] {
                    let whole = try await client.get(path, headers: [("Range", "bytes=10-19"), ("If-Range", validator)])
                    #expect(whole.status == 200, "\(count) If-Range \(validator)")
                    #expect(whole.body == value, "\(count) If-Range \(validator)")
                    #expect(whole.header("Content-Range") == nil, "\(count) If-Range \(validator)")
                    let head = try await client.request("HEAD", path, headers: [("Range", "bytes=10-19"), ("If-Range", validator)])
                    #expect(head.status == 200 && head.header("Content-Length") == "\(count)", "\(count) HEAD If-Range \(validator)")
                }
                // A stale validator also lifts a range past the end: the whole value, not a 416.
                let past = try await client.get(path, headers: [("Range", "bytes=\(count)-"), ("If-Range", staleTag)])
                #expect(past.status == 200 && past.body == value, "\(count)")
                // If-Range without Range changes nothing (§13.1.5).
                #expect(try await client.get(path, headers: [("If-Range", staleTag)]).body == value)
            }
        }
    }

    @Test(
        "HEAD and GET give Content-Length for every size, a streamed value and a range of it too, on one kept connection",
        arguments: StoreBackendKind.available)
    func contentLength(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend) { service in
            let connection = try RawClient(port: service.port, timeout: 30)
            defer { connection.close() }
            for count in [0, 100, 1 << 20, 1 << 20 + 1, 3 << 20 + 5] {
                let value = Self.bytes(count, seed: count)
                let created = try await service.client.create("notes", F.note(#""data":"\#(Data(value).base64EncodedString())""#))
                let path = "/notes/\(try #require(F.int(created["_id"])))/data"
                connection.send("HEAD \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
                let head = try #require(connection.readResponse(isHead: true), "\(count)")
                #expect(head.status == 200 && head.header("Content-Length") == "\(count)", "\(count): \(head.headers)")
                #expect(head.header("Transfer-Encoding") == nil, "\(count)")
                connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
                let whole = try #require(connection.readResponse(), "\(count)")
                #expect(whole.status == 200 && whole.header("Content-Length") == "\(count)", "\(count): \(whole.headers)")
                #expect(whole.header("Transfer-Encoding") == nil, "\(count)")
                #expect(whole.body == value, "\(count)")
                guard count > 1 else { continue }
                connection.send("GET \(path) HTTP/1.1\r\nHost: x\r\nRange: bytes=1-\r\n\r\n")
                let part = try #require(connection.readResponse(), "\(count)")
                #expect(part.status == 206 && part.header("Content-Length") == "\(count - 1)", "\(count): \(part.headers)")
                #expect(part.body == Array(value[1...]), "\(count)")
            }
        }
    }

    @Test(
        "PUT streams a value in, with Content-Length or chunked, hashed as it arrives; If-Match and the size limit hold",
        arguments: StoreBackendKind.available)
    func upload(_ backend: StoreBackendKind) async throws {
        try await TestService.withService(backend: backend, environment: ["CLONER_MAX_UPLOAD_BYTES": "\(6 << 20)"]) { service in
            let client = service.client
            let created = try await client.create("notes", F.note(#""name":"video","data":"AAEC""#))
            let id = try #require(F.int(created["_id"]))
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let url = "http://127.0.0.1:\(service.port)/notes/\(id)/data"

            for (index, chunked) in [false, true].enumerated() {
                let value = Self.bytes(5 << 20 + 3, seed: index)
                let file = directory.url.appendingPathComponent("upload\(index)").path
                _ = FileManager.default.createFile(atPath: file, contents: Data(value))
                var arguments = ["-sS", "-i", "-H", "Expect:", "-X", "PUT", "-H", "Content-Type: application/octet-stream", "--data-binary", "@\(file)", url]
                if chunked { arguments.insert(contentsOf: ["-H", "Transfer-Encoding: chunked"], at: 0) }
                let put = try await Curl.run(arguments)
                #expect(put.status == 200, "\(put.text)")
                let answer = try put.json()
                #expect(answer["sha256"] as? String == (try Self.sha256Hex(value)))
                #expect(F.int(answer["size"]) == value.count)
                #expect(put.header("ETag") == "\"\(try Self.sha256Hex(value))\"")
                #expect(try await client.get("/notes/\(id)/data").body == value)
            }
            #expect(try await service.sql("SELECT count(*) FROM \"_cloner_blobs\"") == "1", "each replaced value went with its last reference")
            let version = try #require(F.int(try await client.get("/notes/\(id)").json()["_version"]))

            let small = directory.url.appendingPathComponent("small").path
            _ = FileManager.default.createFile(atPath: small, contents: Data("small".utf8))
            let stale = try await Curl.run(["-sS", "-i", "-H", "Expect:", "-X", "PUT", "-H", "If-Match: \"\(version - 1)\"", "--data-binary", "@\(small)", url])
            #expect(stale.status == 412, "\(stale.text)")
            let fresh = try await Curl.run(["-sS", "-i", "-H", "Expect:", "-X", "PUT", "-H", "If-Match: \"\(version)\"", "--data-binary", "@\(small)", url])
            #expect(fresh.status == 200, "\(fresh.text)")
            #expect(try await client.get("/notes/\(id)/data").text == "small")

            let tooLarge = directory.url.appendingPathComponent("large").path
            _ = FileManager.default.createFile(atPath: tooLarge, contents: Data(Self.bytes(6 << 20 + 1)))
            let refused = try await Curl.run(["-sS", "-i", "-H", "Expect:", "-X", "PUT", "--data-binary", "@\(tooLarge)", url])
            #expect(refused.status == 413, "\(refused.text)")
            let missing = try await Curl.run([
                "-sS", "-i", "-H", "Expect:", "-X", "PUT", "--data-binary", "@\(small)", "http://127.0.0.1:\(service.port)/notes/\(id)/name",
            ])
            let missingField = try missing.json()["field"] as? String
            #expect(missing.status == 404 && missingField == "name")
            #expect(try await client.get("/notes/\(id)/data").text == "small", "refused uploads changed nothing")
            #expect(try await service.sql("SELECT count(*) FROM \"_cloner_blobs\"") == "1", "no pending blob left behind")
        }
    }
}
