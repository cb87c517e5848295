import ArgumentParser

/// `verdict appstore …`: commands that speak Apple's formats directly.
struct AppStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appstore",
        abstract: "Work with Apple's signed data and the App Store Server API.",
        subcommands: [DecodeCommand.self, BackfillCommand.self, TestNotificationCommand.self, MessagesCommand.self, RealtimeURLCommand.self, PerformanceTestCommand.self]
    )
}
