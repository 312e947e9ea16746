import ClonerService
import Foundation
import Testing

@Suite struct OpenAPIDocumentTests {
    @Test func embeddedCopyIsTheTopLevelFile() throws {
        let topLevel = try Data(contentsOf: repositoryRoot.appendingPathComponent("openapi.yaml"))
        #expect(OpenAPIDocument.bytes == [UInt8](topLevel))
        #expect(OpenAPIDocument.bytes.starts(with: Array("openapi: 3.1.0\n".utf8)))
    }

    /// Every route of DESIGN.md §4 is described, with each of its methods.
    @Test func describesEveryRoute() {
        let text = String(decoding: OpenAPIDocument.bytes, as: UTF8.self)
        let routes: [(String, [String])] = [
            ("/{collection}", ["get", "post"]),
            ("/{collection}/{id}", ["get", "patch", "delete"]),
            ("/{collection}/{id}/clone", ["post"]),
            ("/jobs/{id}", ["get"]),
            ("/model", ["get"]),
            ("/openapi.yaml", ["get"]),
            ("/healthz", ["get"]),
            ("/readyz", ["get"]),
            ("/metrics", ["get"]),
        ]
        // Split the `paths:` section into one block per path (two-space indent).
        let paths = text.components(separatedBy: "\npaths:\n")[1].components(separatedBy: "\ncomponents:\n")[0]
        var blocks: [String: String] = [:]
        var current: String?
        for line in paths.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                current = String(line.dropFirst(2).dropLast())
                blocks[current!] = ""
            } else if let current {
                blocks[current]! += line + "\n"
            }
        }
        #expect(Set(blocks.keys) == Set(routes.map(\.0)))
        for (path, methods) in routes {
            for method in methods {
                #expect(blocks[path]?.contains("\n    \(method):\n") == true || blocks[path]?.hasPrefix("    \(method):\n") == true, "\(method) \(path)")
            }
        }
        #expect(text.contains("application/problem+json"))
        #expect(text.contains("WWW-Authenticate"))
    }
}
