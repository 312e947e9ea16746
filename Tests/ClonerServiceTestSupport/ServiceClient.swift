import ClonerTestSupport
import ClonerTestSupport
import Foundation

/// Requests to one running service, each on its own connection with `Connection: close`.
/// A value type holding only the port and default headers, so threads can share it freely.
package struct ServiceClient: Sendable {
    package let port: Int
    /// Sent with every request unless the request names the same field (e.g. Authorization).
    package var defaultHeaders: [(name: String, value: String)] = []

    package init(port: Int, defaultHeaders: [(name: String, value: String)] = []) {
        self.port = port
        self.defaultHeaders = defaultHeaders
    }

    /// Sends one request on a thread of its own (see `Blocking`).
    package func request(_ method: String, _ path: String, headers: [(name: String, value: String)] = [], body: String? = nil) async throws -> ClientResponse {
        try await Blocking.run { try requestNow(method, path, headers: headers, body: body) }
    }

    /// Sends one request, blocking the calling thread; a body without a Content-Type in
    /// `headers` is labelled JSON.
    package func requestNow(_ method: String, _ path: String, headers: [(name: String, value: String)] = [], body: String? = nil) throws -> ClientResponse {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        let named = Set(headers.map { $0.name.lowercased() })
        for field in defaultHeaders where !named.contains(field.name.lowercased()) {
            head += "\(field.name): \(field.value)\r\n"
        }
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        let bytes = Array((body ?? "").utf8)
        if let body {
            if !named.contains("content-type") { head += "Content-Type: application/json\r\n" }
            head += "Content-Length: \(body.utf8.count)\r\n"
        }
        head += "\r\n"
        let connection = try RawClient(port: port, timeout: 60)
        defer { connection.close() }
        connection.send(Array(head.utf8) + bytes)
        let received = try connection.receiveToEnd()
        return try ClientResponse.parse(received, toHead: method == "HEAD").response
    }

    package func get(_ path: String, headers: [(name: String, value: String)] = []) async throws -> ClientResponse {
        try await request("GET", path, headers: headers)
    }

    package func post(_ path: String, _ body: String?, headers: [(name: String, value: String)] = []) async throws -> ClientResponse {
        try await request("POST", path, headers: headers, body: body)
    }

    package func patch(_ path: String, _ body: String, headers: [(name: String, value: String)] = []) async throws -> ClientResponse {
        try await request("PATCH", path, headers: headers, body: body)
    }

    package func delete(_ path: String, headers: [(name: String, value: String)] = []) async throws -> ClientResponse {
        try await request("DELETE", path, headers: headers)
    }

    /// Every `_id` the to-many `relationship` of `record` links: its inline list, or, when `_lists`
    /// says the list is longer than a record shows, every page of the list route it names (in
    /// `_id` order, which is the list's order for objects created or cloned together).
    package func linkedIDs(_ record: [String: Any], _ relationship: String) async throws -> [Int] {
        let inline = EndToEndFixture.ints(record[relationship]) ?? []
        guard let entry = (record["_lists"] as? [String: [String: Any]])?[relationship] else { return inline }
        guard let all = entry["all"] as? String else { throw ClientError("\(relationship): \(entry) names no route to every link") }
        var ids: [Int] = []
        var next: String? = all + "&limit=1000"
        while let page = next {
            let response = try await get(page)
            guard response.status == 200 else { throw ClientError("GET \(page) answered \(response.status): \(response.text)") }
            let body = try response.json()
            ids += ((body["data"] as? [[String: Any]]) ?? []).compactMap { EndToEndFixture.int($0["_id"]) }
            next = body["next"] as? String
        }
        return ids
    }

    /// Creates a record and returns it; fails the calling test with the answer if it was not 201.
    package func create(_ collection: String, _ body: String) async throws -> [String: Any] {
        let response = try await post("/\(collection)", body)
        guard response.status == 201 else { throw ClientError("POST /\(collection) answered \(response.status): \(response.text)") }
        return try response.json()
    }

    /// Creates a record and returns its `_id` (`create`).
    package func createdID(_ collection: String, _ body: String) async throws -> Int {
        let record = try await create(collection, body)
        guard let id = EndToEndFixture.int(record["_id"]) else { throw ClientError("POST /\(collection) answered no _id: \(record)") }
        return id
    }

    /// The current value of a Prometheus sample: the sum over every series of `name` whose labels
    /// contain all of `labels` (e.g. `route="/{collection}"`).
    package func metric(_ name: String, labels: [String] = []) async throws -> Double {
        try await Blocking.run { try metricNow(name, labels: labels) }
    }

    /// `metric`, blocking the calling thread: for a test that must see a moment and act in it
    /// without waiting for a turn of the cooperative pool, which other suites may hold.
    package func metricNow(_ name: String, labels: [String] = []) throws -> Double {
        let response = try requestNow("GET", "/metrics")
        guard response.status == 200 else { throw ClientError("GET /metrics answered \(response.status)") }
        var total = 0.0
        for line in response.text.split(separator: "\n") where !line.hasPrefix("#") {
            guard line.hasPrefix(name + "{") || line.hasPrefix(name + " ") else { continue }
            guard labels.allSatisfy({ line.contains($0) }) else { continue }
            if let value = line.split(separator: " ").last.flatMap({ Double($0) }) { total += value }
        }
        return total
    }

    /// Polls (bounded) until the sample equals `expected`; the last value read. Metrics are
    /// recorded as a request ends, which may be just after its answer reached the client.
    package func metric(_ name: String, labels: [String] = [], settlingAt expected: Double, timeout: Duration = .seconds(10)) async throws -> Double {
        let deadline = ContinuousClock.now + timeout
        var value = try await metric(name, labels: labels)
        while value != expected && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            value = try await metric(name, labels: labels)
        }
        return value
    }
}
