import ClonerModel
import ClonerStore
import Foundation

/// `clone-bench`: measures the clone engine against a hand-written SQL copy. With no
/// subcommand it runs the whole suite; `setup` and `run` are the child processes the suite starts,
/// one per measurement, so each reports its own peak memory.
@main
struct CloneBench {
    static let usage = """
        usage: clone-bench [suite] [--sizes 1000,10000,100000] [--rounds 3] [--blob-bytes 4096]
                           [--large-count 256] [--large-bytes 4194304] [--no-large] [--dir PATH] [--keep]
                           [--model config/model.json]
               clone-bench copies [--items 100] [--copies 100] [--rounds 3] [--blob-bytes 0,4096] [--dir PATH] [--keep]
               clone-bench verify [--dir PATH]
               clone-bench postgresql --uri URI [--sizes …] [--rounds 3] [--blob-bytes 4096] [--large-count 256]
                           [--large-bytes 4194304] [--no-large]        (a running cluster; see scripts/bench-clone.sh)
               clone-bench setup --db PATH --items N [--blob-bytes 4096]      (child process)
               clone-bench run --db PATH --mode cloner|sql|singles [--root 1] [--copies 1] [--profile]  (child process;
                   --profile prints the copy's statements, slowest first, on standard error, each
                   cut to CLONE_BENCH_PROFILE_TEXT characters, 160 by default)
               clone-bench pg-setup --uri URI --items N [--blob-bytes 4096]   (child process)
               clone-bench pg-run --uri URI --mode cloner|sql [--root 1]      (child process)
        """

    static func main() {
        do {
            let arguments = try BenchArguments(Array(CommandLine.arguments.dropFirst()))
            if arguments.has("--help") {
                Console.line(usage)
                return
            }
            exit(try run(arguments) ? 0 : 1)
        } catch {
            FileHandle.standardError.write(Data("clone-bench: \(error)\n".utf8))
            exit(2)
        }
    }

    private static func run(_ arguments: BenchArguments) throws -> Bool {
        let modelPath = try arguments.string("--model", default: "config/model.json")
        let model = { () throws -> DataModel in try ModelLoader.load(contentsOf: URL(fileURLWithPath: modelPath)) }
        switch arguments.command {
        case "suite":
            let directory = try arguments.string(
                "--dir",
                default: FileManager.default.temporaryDirectory
                    .appendingPathComponent("clone-bench-\(UUID().uuidString.prefix(8))").path)
            var suite = BenchSuite(modelPath: modelPath, directory: URL(fileURLWithPath: directory))
            suite.sizes = try BenchSizes(arguments)
            suite.keep = arguments.has("--keep")
            return try suite.run()
        case "copies":
            let directory = try arguments.string(
                "--dir",
                default: FileManager.default.temporaryDirectory
                    .appendingPathComponent("clone-bench-copies-\(UUID().uuidString.prefix(8))").path)
            var suite = CopiesBenchSuite(modelPath: modelPath, directory: URL(fileURLWithPath: directory))
            suite.items = try arguments.int("--items", default: suite.items)
            suite.copies = try arguments.int("--copies", default: suite.copies)
            suite.rounds = try arguments.int("--rounds", default: suite.rounds)
            suite.attachmentSizes = try arguments.ints("--blob-bytes", default: suite.attachmentSizes)
            suite.keep = arguments.has("--keep")
            precondition(suite.rounds > 0 && suite.copies > 0, "--rounds and --copies must be positive")
            return try suite.run()
        case "verify":
            let directory = URL(
                fileURLWithPath: try arguments.string(
                    "--dir",
                    default: FileManager.default.temporaryDirectory
                        .appendingPathComponent("clone-bench-verify-\(UUID().uuidString.prefix(8))").path))
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            Console.line(try BenchVerification(model: try model()).run(in: directory))
            return true
        case "setup":
            let database = try arguments.string("--db")
            let dataSet = BenchDataSet(items: try arguments.int("--items"), attachmentBytes: try arguments.int("--blob-bytes", default: 4_096))
            let store = try IncrementalStore(path: database, model: try model())
            let clock = ContinuousClock()
            let start = clock.now
            let root = try dataSet.build(in: store)
            let elapsed = clock.now - start
            // Fold the WAL into the file so every measured run starts from the same state.
            store.closeIdleConnections()
            let checkpoint = try SQLiteConnection(path: database)
            try checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            Console.line(
                BenchMeasurement([
                    "root": "\(root)", "seconds": "\(elapsed.seconds)",
                    "hwm_kib": "\(PeakMemory.residentHighWaterMarkKiB())",
                ]).line)
            return true
        case "run":
            guard let mode = BenchRun.Mode(rawValue: try arguments.string("--mode")) else {
                throw BenchArguments.Invalid(description: "--mode must be cloner, sql or singles")
            }
            let run = BenchRun(
                model: try model(), database: try arguments.string("--db"),
                root: Int64(try arguments.int("--root", default: 1)), mode: mode,
                copies: try arguments.int("--copies", default: 1), profile: arguments.has("--profile"))
            Console.line(try run.run().line)
            return true
        case "postgresql", "pg-setup", "pg-run":
            return try runPostgreSQL(arguments, modelPath: modelPath)
        default:
            throw BenchArguments.Invalid(description: "unknown command \(arguments.command)\n\(usage)")
        }
    }
}
