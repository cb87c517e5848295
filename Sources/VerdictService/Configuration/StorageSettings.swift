import Configuration
import VerdictStorage

/// The settings a reader of the service's data needs (`verdict rules replay`): the database, the
/// rules folder and the app whose data it reads, read from the same flags, `VERDICT_*` variables
/// and config file as `verdict serve`, with the same checks — and nothing else required.
public struct StorageSettings: Sendable {
    public var databaseURL: DatabaseURL
    public var rulesDirectory: String
    /// The app (bundle id) whose rows are read.
    public var bundleId: String

    /// Reads and checks the three settings.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        let settings = SettingReader(reader: reader)
        databaseURL = try settings.databaseURL(.databaseURL, default: "sqlite:verdict.sqlite")
        rulesDirectory = try settings.directory(.rulesDirectory, default: "Rules")
        bundleId = try settings.bundleId(.bundleId, "the bundle id of the app whose data is read")
    }
}
