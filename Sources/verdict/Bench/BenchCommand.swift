import ArgumentParser

/// `verdict bench …`: benchmarks that print figures (tests never time anything).
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure throughput on this machine and print the figures.",
        subcommands: [VerifyBenchCommand.self, SignBenchCommand.self, RulesBenchCommand.self, IntakeBenchCommand.self,
                      ReplayBenchCommand.self, ConsoleBenchCommand.self, RealtimeBenchCommand.self]
    )
}
