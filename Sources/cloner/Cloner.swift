import ArgumentParser

@main
struct Cloner: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cloner",
        abstract: "Deep-copies records of an object graph over HTTP.",
        subcommands: [
            ServeCommand.self, CheckModelCommand.self, CheckStoreCommand.self, ImportModelCommand.self, ExportCommand.self,
            ImportCommand.self,
        ],
        defaultSubcommand: ServeCommand.self)
}
