import ArgumentParser
import VerdictService

/// `--app <bundle id>`: the app a command acts for, optional when one app is configured.
struct AppOption: ParsableArguments {
    @Option(name: .customLong("app"), help: "The app to act for: its bundle id (optional when one app is configured).")
    var bundleId: String?

    /// The chosen app's context, or a usage error naming what to give.
    func select(in server: VerdictServer) throws -> AppContext {
        do {
            return try server.apps.select(bundleId)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The chosen app's settings (commands that do not open the service).
    func select(in configuration: ServiceConfiguration) throws -> AppConfiguration {
        do {
            return try AppSelectionError.select(bundleId, among: configuration.apps, named: \.bundleId)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
