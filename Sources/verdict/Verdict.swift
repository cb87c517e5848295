import ArgumentParser

/// The `verdict` command line: the service, the App Store simulator, and tools around Apple's formats.
@main
struct Verdict: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verdict",
        abstract: "Retention offers and refund answers for App Store subscription apps, decided by rules you own.",
        subcommands: [
            ServeCommand.self,
            AppStoreCommand.self,
            SignCommand.self,
            SimulatorCommand.self,
            BenchCommand.self,
            RulesCommand.self,
            DemoCommand.self,
        ]
    )
}
