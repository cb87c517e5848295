import Configuration
import Foundation

/// Builds the `ConfigReader` of `verdict serve`: CLI flags first, then `VERDICT_*` environment
/// variables, then an optional JSON config file (`--config FILE` or `VERDICT_CONFIG_FILE`, read by
/// ``ConfigurationFile``, which also lays out its `"apps"` and `"apiTokens"` entries).
public enum ConfigurationSources {
    /// - Parameters:
    ///   - flags: values given on the command line, by ``ConfigurationKey``.
    ///   - environment: the process environment; only `VERDICT_*` variables are read.
    ///   - configFile: a JSON file whose nested keys mirror the configuration keys
    ///     (`{"database": {"url": "sqlite:verdict.sqlite"}, "port": 8080}`), and may list apps
    ///     (`{"apps": [{"bundleId": "…", "rules": {"dir": "…"}}, …]}`).
    public static func reader(
        flags: [ConfigurationKey: String] = [:],
        environment: [String: String] = ProcessInfo.processInfo.environment,
        configFile: String? = nil
    ) async throws(ConfigurationError) -> ConfigReader {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for (key, value) in flags {
            values[AbsoluteConfigKey(ConfigKey(key.key))] = ConfigValue(.string(value), isSecret: key.isSecret)
        }
        var stripped: [String: String] = [:]
        for (name, value) in environment where name.hasPrefix("VERDICT_") {
            let setting = String(name.dropFirst("VERDICT_".count))
            guard !ConfigurationFile.reservedEnvironmentPrefixes.contains(where: setting.hasPrefix) else { continue }
            stripped[setting] = value
        }
        let secretNames = Set(ConfigurationKey.all.filter(\.isSecret).map {
            String($0.environmentVariable.dropFirst("VERDICT_".count))
        })
        var providers: [any ConfigProvider] = [
            InMemoryProvider(name: "flags", values: values),
            EnvironmentVariablesProvider(
                environmentVariables: stripped,
                secretsSpecifier: .dynamic { name, _ in secretNames.contains(name.uppercased()) }
            ),
        ]
        if let file = configFile ?? environment["VERDICT_CONFIG_FILE"], !file.isEmpty {
            providers.append(InMemoryProvider(name: "file", values: try ConfigurationFile(path: file).values))
        }
        return ConfigReader(providers: providers)
    }
}
