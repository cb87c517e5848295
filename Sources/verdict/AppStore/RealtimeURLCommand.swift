import AppStoreServer
import ArgumentParser
import Foundation
import VerdictService

/// `verdict appstore realtime-url set|get|delete`: where the App Store sends Retention Messaging
/// realtime requests (Verdict's `/v1/retention/realtime`).
struct RealtimeURLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realtime-url",
        abstract: "Set, show or delete the Retention Messaging realtime URL at Apple.",
        subcommands: [Set.self, Get.self, Delete.self]
    )

    struct Context: ParsableArguments {
        @OptionGroup var options: ServiceOptions
        @OptionGroup var app: AppOption
        @Option(help: "Production or Sandbox (Production needs a passing performance test).")
        var environment: String = AppStoreEnvironment.sandbox.rawValue

        func withClient(_ body: (AppStoreServerAPIClient) async throws -> Void) async throws {
            let configuration = try await options.configuration()
            let access = AppStoreAPIAccess(configuration: try app.select(in: configuration), metrics: ServiceMetrics())
            let client: AppStoreServerAPIClient
            do {
                client = try access.client(for: AppStoreEnvironment(rawValue: environment))
            } catch {
                throw ValidationError("realtime-url needs the In-App Purchase key: \(access.unavailableReason ?? "unavailable")")
            }
            do {
                try await body(client)
            } catch let failure as AppStoreAPIFailure {
                throw ValidationError("the App Store answered: \(failure)")
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set the realtime URL (https://…/v1/retention/realtime).")
        @OptionGroup var context: Context
        @Argument(help: "The URL, https:// and at most 256 characters.")
        var url: String

        func validate() throws {
            guard url.count <= 256, let parsed = URL(string: url), parsed.scheme == "https", parsed.host != nil else {
                throw ValidationError("the realtime URL must be an https:// URL of at most 256 characters")
            }
        }

        func run() async throws {
            try await context.withClient { client in
                try await client.setRealtimeURL(url)
                print("realtime URL set (\(context.environment)): \(url)")
            }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the realtime URL.")
        @OptionGroup var context: Context

        func run() async throws {
            try await context.withClient { client in
                do {
                    print(try await client.getRealtimeURL().realtimeURL)
                } catch let failure as AppStoreAPIFailure where failure.httpStatus == 404 {
                    print("no realtime URL is set (\(context.environment))")
                }
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete the realtime URL (Apple stops calling).")
        @OptionGroup var context: Context

        func run() async throws {
            try await context.withClient { client in
                try await client.deleteRealtimeURL()
                print("realtime URL deleted (\(context.environment))")
            }
        }
    }
}
