import ClonerTestSupport
import Foundation
import Testing

/// The README's set-up and recipes as a new user copies them: what they name exists, and the
/// parts that do not need a running service behave as the text says.
@Suite struct ReadmeTests {
    static let readme: String = try! String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)

    static func file(_ path: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// One list of Debian packages: the README's install line is the list, and CI and the
    /// container build install the list itself.
    @Test func oneListOfDebianPackages() throws {
        let list = try Self.file("scripts/debian-packages.txt").split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.flatMap { $0.split(separator: " ") }.map(String.init)
        #expect(list.contains("libpq-dev") && list.contains("pkg-config") && list.contains("libxml2-dev") && list.contains("postgresql"))
        let install = try #require(Self.readme.split(separator: "\n").first { $0.hasPrefix("sudo apt-get install lib") })
        #expect(install.split(separator: " ").dropFirst(3).map(String.init) == list, "\(install)")
        #expect(try Self.file(".ci/run").contains("$(grep -v '^#' scripts/debian-packages.txt)"))
        let dockerfile = try Self.file("Dockerfile")
        #expect(dockerfile.contains("COPY scripts/debian-packages.txt /tmp/debian-packages.txt"))
        #expect(dockerfile.contains("$(grep -v '^#' /tmp/debian-packages.txt)"))
    }

    /// The one line of configuration the README gives a generated Swift client is the one the
    /// client example runs with and its README shows: answers carry fractional seconds.
    @Test func theSwiftClientConfigurationIsTheExamples() throws {
        let line = "configuration: Configuration(dateTranscoder: .iso8601WithFractionalSeconds)"
        #expect(Self.readme.contains(line))
        #expect(try Self.file("examples/swift-client/README.md").contains(line))
        #expect(
            try Self.file("examples/swift-client/Sources/cloner-mobile-walk/main.swift").contains(
                "= Configuration(dateTranscoder: .iso8601WithFractionalSeconds)"))
        #expect(try Self.file("examples/swift-client/Sources/cloner-mobile-walk/main.swift").contains("configuration: configuration"))
    }

    /// The async-job recipe reads the job's URL from `Location` however the header name is
    /// cased: haproxy (the README's own deployment) sends `location:`.
    @Test func theAsyncRecipeFindsTheJobWhateverTheHeaderCase() throws {
        let lines = Self.readme.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("job=$(curl") }, "the README has no async-job recipe")
        let pipeline = lines[start + 1].trimmingCharacters(in: .whitespaces)
        #expect(pipeline.hasPrefix("| ") && pipeline.hasSuffix(")"), "\(pipeline)")
        let extraction = String(pipeline.dropFirst(2).dropLast())
        for name in ["Location", "location", "LOCATION"] {
            let head = "HTTP/1.1 202 Accepted\\r\\n\(name): /jobs/0b8f\\r\\nContent-Length: 0\\r\\n\\r\\n"
            let (status, output) = try Self.shell("printf '\(head)' | \(extraction)")
            #expect(status == 0)
            #expect(output == "/jobs/0b8f\n", "\(name): \(output.debugDescription)")
        }
    }

    /// Every Core Data model the README names is in the repository and loads.
    @Test func theCoreDataExamplesNameARealModel() async throws {
        let pattern = try NSRegularExpression(pattern: #"[A-Za-z0-9_./-]+\.xcdatamodeld"#)
        let text = Self.readme
        let paths = Set(
            pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
                .map { String(text[Range($0.range, in: text)!]) }.filter { $0.contains("/") })
        #expect(!paths.isEmpty, "the README names no .xcdatamodeld to try")
        for path in paths {
            #expect(FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent(path).path), "\(path)")
            // A generous bound: in a full parallel run the child's exit was once seen only after 60 s.
            let checked = try await ServiceProcess.run(["check-model", path], in: repositoryRoot, timeout: .seconds(300))
            #expect(checked.status == 0, "\(path): \(checked.stderr)")
        }
    }

    static func shell(_ script: String) throws -> (status: Int32, output: String) {
        let outcome = try ShortCommand.run("/bin/sh", ["-c", script], timeout: .seconds(30))
        return (outcome.status, String(decoding: outcome.output, as: UTF8.self))
    }
}
