import Configuration
import VerdictStorage

/// The settings a reader of the service's data needs (`verdict rules replay`): the database and
/// the rules folder, read from the same flags, `VERDICT_*` variables and config file as
/// `verdict serve`, with the same checks — and nothing else required.
public struct StorageSettings: Sendable {
    public var databaseURL: DatabaseURL
    public var rulesDirectory: String

    /// Reads and checks the two settings.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        let settings = SettingReader(reader: reader)
        databaseURL = try settings.databaseURL(.databaseURL, default: "sqlite:verdict.sqlite")
        rulesDirectory = try settings.directory(.rulesDirectory, default: "Rules")
    }
}
