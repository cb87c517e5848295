import Configuration
import VerdictStorage

/// The settings a reader of the service's data needs (`verdict rules replay`): the database, and
/// the app whose data it reads with that app's rules folder, read from the same flags, `VERDICT_*`
/// variables and config file as `verdict serve`, with the same checks — and nothing else required.
///
/// With the config file's `"apps"`, the app is the one `bundleId` (`--app`) names among them, or
/// the only one; its rules folder is its entry's. Without it, the single app's settings as for
/// `serve`.
public struct StorageSettings: Sendable {
    public var databaseURL: DatabaseURL
    /// The chosen app's rules folder.
    public var rulesDirectory: String
    /// The app (bundle id) whose rows are read.
    public var bundleId: String

    /// Reads and checks the settings.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        let settings = SettingReader(reader: reader)
        databaseURL = try settings.databaseURL(.databaseURL, default: "sqlite:verdict.sqlite")
        guard let count = reader.int(forKey: ConfigurationFile.appCountKey), count > 0 else {
            rulesDirectory = try settings.directory(.rulesDirectory, default: "Rules")
            bundleId = try settings.bundleId(.bundleId, "the bundle id of the app whose data is read")
            return
        }
        var entries: [(bundleId: String, rules: String)] = []
        for position in 0..<count {
            let entry = SettingReader(reader: reader.scoped(to: ConfigurationFile.appKey(position)))
            entries.append((try entry.bundleId(.bundleId, "in apps[\(position)]"), try entry.directory(.rulesDirectory, default: "Rules")))
        }
        let chosen: (bundleId: String, rules: String)
        do {
            chosen = try AppSelectionError.select(settings.string(.bundleId), among: entries, named: \.bundleId)
        } catch {
            throw ConfigurationError(.bundleId, "chooses no app: \(error.description)")
        }
        bundleId = chosen.bundleId
        rulesDirectory = chosen.rules
    }
}
