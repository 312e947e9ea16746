/// `--name value` options and bare `--flag`s after the subcommand; no dependency for a tool with
/// a handful of options run from one script.
struct BenchArguments {
    let command: String
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    static let flagNames: Set<String> = ["--keep", "--no-large", "--help", "--profile"]

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        if let first = rest.first, !first.hasPrefix("--") {
            command = first
            rest = rest.dropFirst()
        } else {
            command = "suite"
        }
        while let name = rest.popFirst() {
            guard name.hasPrefix("--") else { throw Invalid(description: "unexpected argument \(name)") }
            if BenchArguments.flagNames.contains(name) {
                flags.insert(name)
            } else {
                guard let value = rest.popFirst() else { throw Invalid(description: "\(name) needs a value") }
                options[name] = value
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    func string(_ name: String, default value: String? = nil) throws -> String {
        guard let found = options[name] ?? value else { throw Invalid(description: "missing \(name)") }
        return found
    }

    func int(_ name: String, default value: Int? = nil) throws -> Int {
        guard let text = options[name] else {
            guard let value else { throw Invalid(description: "missing \(name)") }
            return value
        }
        guard let number = Int(text.replacingOccurrences(of: "_", with: "")) else { throw Invalid(description: "\(name): \(text) is not an integer") }
        return number
    }

    func ints(_ name: String, default value: [Int]) throws -> [Int] {
        guard let text = options[name] else { return value }
        return try text.split(separator: ",").map { part in
            guard let number = Int(part.replacingOccurrences(of: "_", with: "")) else { throw Invalid(description: "\(name): \(part) is not an integer") }
            return number
        }
    }
}
