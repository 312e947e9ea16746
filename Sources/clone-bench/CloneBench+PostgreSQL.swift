import ClonerModel
import ClonerStore
import Foundation

extension CloneBench {
    /// The PostgreSQL subcommands: `postgresql` (the suite, on a cluster the script started),
    /// and its child processes `pg-setup` and `pg-run`.
    static func runPostgreSQL(_ arguments: BenchArguments, modelPath: String) throws -> Bool {
        let model = try ModelLoader.load(contentsOf: URL(fileURLWithPath: modelPath))
        let uri = try arguments.string("--uri")
        switch arguments.command {
        case "postgresql":
            var suite = PostgreSQLBenchSuite(modelPath: modelPath, adminURI: uri)
            suite.sizes = try BenchSizes(arguments)
            return try suite.run()
        case "pg-setup":
            // Opening the store creates its tables, as the service would on first start.
            _ = try IncrementalStore(location: .postgreSQL(uri: uri), model: model)
            let dataSet = BenchDataSet(items: try arguments.int("--items"), attachmentBytes: try arguments.int("--blob-bytes", default: 4_096))
            let clock = ContinuousClock()
            let start = clock.now
            let root = try dataSet.build(postgreSQL: uri)
            Console.line(
                BenchMeasurement([
                    "root": "\(root)", "seconds": "\((clock.now - start).seconds)",
                    "hwm_kib": "\(PeakMemory.residentHighWaterMarkKiB())",
                ]).line)
            return true
        default:
            guard let mode = BenchRun.Mode(rawValue: try arguments.string("--mode")) else {
                throw BenchArguments.Invalid(description: "--mode must be cloner or sql")
            }
            let run = PostgreSQLBenchRun(model: model, uri: uri, root: Int64(try arguments.int("--root", default: 1)), mode: mode)
            Console.line(try run.run().line)
            return true
        }
    }
}
