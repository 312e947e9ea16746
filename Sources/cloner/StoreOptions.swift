import ArgumentParser

/// The options that name a store for the commands that work on one without a server
/// (`check-store`, `export`, `import`): the same three `cloner serve` takes, read the same way
/// (settings file, then `CLONER_*` variables, then these flags).
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: "Settings file (JSON). Default: config/cloner.json when it exists.")
    var settingsFile: String?

    @Option(help: "SQLite database file, or a postgres:// or postgresql:// URI. Default data/cloner.sqlite.")
    var database: String?

    @Option(help: "Data model file. Default config/model.json.")
    var model: String?
}
