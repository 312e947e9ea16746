import ClonerTestSupport
import Foundation
import Testing

/// Holds a served description to the OpenAPI 3 specification.
enum OpenAPIValidator {
    /// Checks the document with openapi-spec-validator when python3 has it (`pip install
    /// openapi-spec-validator`); without it the callers' own checks (the YAML parses, no parameter
    /// is listed twice) are what remain.
    static func validate(_ bytes: [UInt8]) throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let probe = try ShortCommand.run("/usr/bin/env", ["python3", "-c", "import openapi_spec_validator"])
        guard probe.status == 0 else { return }
        let input = folder.url.appendingPathComponent("document.yaml")
        try Data(bytes).write(to: input)
        let outcome = try ShortCommand.run(
            "/usr/bin/env",
            [
                "python3", "-c",
                """
                import sys
                from openapi_spec_validator import validate
                from openapi_spec_validator.readers import read_from_filename
                document, _ = read_from_filename(sys.argv[1])
                validate(document)
                """, input.path,
            ])
        #expect(outcome.status == 0, "not valid OpenAPI: \(String(decoding: outcome.errors, as: UTF8.self).suffix(2000))")
    }
}
