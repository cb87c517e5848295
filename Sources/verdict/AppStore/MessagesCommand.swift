import AppStoreServer
import ArgumentParser
import Foundation
import RuleEngine
import VerdictService

/// `verdict appstore messages sync|status`: the retention messages of `messages.yaml` at Apple.
struct MessagesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messages",
        abstract: "Upload the retention messages of messages.yaml to Apple and read their review states.",
        subcommands: [Sync.self, Status.self]
    )

    /// What both subcommands need.
    struct Context: ParsableArguments {
        @OptionGroup var options: ServiceOptions
        @OptionGroup var app: AppOption
        @Option(help: "Production or Sandbox.")
        var environment: String = AppStoreEnvironment.sandbox.rawValue

        func run(upload: Bool) async throws {
            let configuration = try await options.configuration()
            let logger = ServiceOptions.bootstrapLogging(level: .warning)
            let server = try await VerdictServer.open(configuration: configuration, logger: logger)
            let outcome: Result<RetentionMessageSync.Report, any Error>
            do {
                outcome = .success(try await sync(try app.select(in: server), upload: upload))
            } catch {
                outcome = .failure(error)
            }
            try await server.shutdown()
            print(try outcome.get().render())
        }

        private func sync(_ app: AppContext, upload: Bool) async throws -> RetentionMessageSync.Report {
            let rulesDirectory = app.configuration.rulesDirectory
            guard let bundle = app.rules.current else {
                throw ValidationError("the rule bundle in \(rulesDirectory) does not load: run `verdict rules check`")
            }
            let client: AppStoreServerAPIClient
            do {
                client = try app.appStore.client(for: AppStoreEnvironment(rawValue: environment))
            } catch {
                throw ValidationError("messages needs the In-App Purchase key: \(app.appStore.unavailableReason ?? "unavailable")")
            }
            do {
                return try await RetentionMessageSync(
                    client: client, repository: app.repository, messages: bundle.messages, imagesDirectory: rulesDirectory)
                    .run(upload: upload)
            } catch let failure as AppStoreAPIFailure {
                throw ValidationError("the App Store answered: \(failure)")
            } catch let problem as RetentionImageFiles.Problem {
                throw ValidationError("\(problem)")
            }
        }
    }

    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload new and changed messages, delete removed ones, set default messages, print review states.")
        @OptionGroup var context: Context
        func run() async throws { try await context.run(upload: true) }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print and record each message's review state (changes nothing at Apple).")
        @OptionGroup var context: Context
        func run() async throws { try await context.run(upload: false) }
    }
}
