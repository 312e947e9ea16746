#if canImport(Glibc)
import Glibc
#endif

/// Re-runs saved inputs through the fuzz checks without libFuzzer: the seed corpus as a
/// conformance table, a crash file as a reproducer. A broken invariant aborts (as under the
/// fuzzer); a seed breaking its file name's promise is reported and fails the exit status.
enum CorpusReplay {
    static func run(paths: [String]) -> Int32 {
        guard !paths.isEmpty else {
            writeToStandardError("usage: http-parser-fuzz FILE|DIRECTORY...  (built with -sanitize=fuzzer: libFuzzer options)\n")
            return 2
        }
        var files: [String] = []
        for path in paths { files += regularFiles(at: path) }
        var broken = 0
        for file in files.sorted() {
            guard let bytes = contents(of: file) else {
                writeToStandardError("cannot read \(file)\n")
                broken += 1
                continue
            }
            let name = String(file.split(separator: "/").last ?? "")
            bytes.withUnsafeBufferPointer { input in
                ParserFuzzCheck.run(input)
                if let violation = SeedExpectation(fileName: name).violation(for: input) {
                    print("FAIL \(file): \(violation)")
                    broken += 1
                }
            }
        }
        print("replayed \(files.count) inputs, \(broken) failed")
        return broken == 0 ? 0 : 1
    }

    /// `path` itself, or the regular files directly inside it.
    private static func regularFiles(at path: String) -> [String] {
        guard let directory = opendir(path) else { return [path] }
        defer { closedir(directory) }
        var files: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            var info = stat()
            let full = path.hasSuffix("/") ? path + name : path + "/" + name
            if stat(full, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG { files.append(full) }
        }
        return files
    }

    private static func contents(of path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            bytes.append(contentsOf: chunk[0..<count])
            if count < chunk.count { return ferror(file) == 0 ? bytes : nil }
        }
    }
}
