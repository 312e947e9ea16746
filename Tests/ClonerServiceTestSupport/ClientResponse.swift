import ClonerTestSupport
import Foundation

/// One HTTP response as read off the wire by a `RawClient` to the end of the connection, chunked
/// bodies included.
package struct ClientResponse: Sendable {
    package let status: Int
    package let headers: [(name: String, value: String)]
    package let body: [UInt8]

    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    package var text: String { String(decoding: body, as: UTF8.self) }

    /// A clone answer's `clone.id`; throws with the answer when there is none.
    package func cloneID() throws -> Int {
        guard let clone = try json()["clone"] as? [String: Any], let id = EndToEndFixture.int(clone["id"]) else {
            throw ClientError("not a clone answer (\(status)): \(text)")
        }
        return id
    }

    /// The body as a JSON object, parsed by Foundation independently of the service's writer.
    package func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw ClientError("expected a JSON object, got \(text)")
        }
        return object
    }

    /// Parses one response (status line, fields, body framed by Content-Length or chunked, or
    /// up to the close) from the start of `bytes`; the remainder is returned for pipelining.
    /// The answer to HEAD has no body whatever its Content-Length says (RFC 9110 §9.3.2).
    package static func parse(_ bytes: [UInt8], toHead: Bool = false) throws -> (response: ClientResponse, rest: ArraySlice<UInt8>) {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw ClientError("no complete response head in \(bytes.count) bytes: \(String(decoding: bytes, as: UTF8.self))")
        }
        let lines = String(decoding: bytes[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw ClientError("bad status line \(lines[0])")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw ClientError("bad header line \(line)") }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = ClientResponse(status: status, headers: headers, body: [])
        var rest = bytes[(headEnd + 4)...]
        if toHead || status == 204 || status == 304 || (100..<200).contains(status) {
            return (response, rest)
        }
        if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
            var body: [UInt8] = []
            while true {
                guard let lineEnd = rest.indices.first(where: { rest[$0...].starts(with: [13, 10]) }) else {
                    throw ClientError("truncated chunk size line")
                }
                let sizeText = String(decoding: rest[rest.startIndex..<lineEnd], as: UTF8.self).split(separator: ";")[0]
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { throw ClientError("bad chunk size \(sizeText)") }
                rest = rest[(lineEnd + 2)...]
                if size == 0 {
                    if let trailerEnd = rest.indices.first(where: { rest[$0...].starts(with: [13, 10]) }) { rest = rest[(trailerEnd + 2)...] }
                    break
                }
                guard rest.count >= size + 2 else { throw ClientError("truncated chunk") }
                body.append(contentsOf: rest.prefix(size))
                rest = rest.dropFirst(size + 2)
            }
            response = ClientResponse(status: status, headers: headers, body: body)
        } else if let lengthText = response.header("Content-Length") {
            guard let length = Int(lengthText), rest.count >= length else {
                throw ClientError("body shorter than Content-Length \(lengthText): \(rest.count) bytes")
            }
            response = ClientResponse(status: status, headers: headers, body: Array(rest.prefix(length)))
            rest = rest.dropFirst(length)
        } else {
            response = ClientResponse(status: status, headers: headers, body: Array(rest))
            rest = []
        }
        return (response, rest)
    }
}

extension RawClient {
    /// `receive` parsed as one response.
    package func receiveResponse() async throws -> ClientResponse {
        try ClientResponse.parse(try await receive()).response
    }
}
