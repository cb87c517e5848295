/// A setting of `verdict serve` that is missing or invalid. Its description is the one line
/// start-up prints; it names the environment variable and never echoes a secret's value.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let key: ConfigurationKey
    public let problem: String
    /// The app of the config file's `"apps"` the setting belongs to: its bundle id, or its position
    /// (`apps[2]`) when it has none; nil for a process-wide setting and for single-app settings.
    public let app: String?

    /// The exit status of a command stopped by a configuration error: 78, `EX_CONFIG` of sysexits(3).
    public static let exitStatus: Int32 = 78

    public init(_ key: ConfigurationKey, _ problem: String, app: String? = nil) {
        self.key = key
        self.problem = problem
        self.app = app
    }

    /// The same error about the app `label` (an error that names an app already keeps it).
    func naming(app label: String) -> ConfigurationError {
        ConfigurationError(key, problem, app: app ?? label)
    }

    /// One line, whatever the problem's text holds (line breaks become spaces). An error about an
    /// app entry names the app, then the setting as the entry spells it (`rules.dir`).
    public var description: String {
        let line = if let app {
            "configuration error: app \(app): \(key.key) \(problem)"
        } else {
            "configuration error: \(key.environmentVariable) (\(key.flag)) \(problem)"
        }
        return line.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
