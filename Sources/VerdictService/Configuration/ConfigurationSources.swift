import Configuration
import Foundation

/// Builds the `ConfigReader` of `verdict serve`: CLI flags first, then `VERDICT_*` environment
/// variables, then an optional JSON config file (`--config FILE` or `VERDICT_CONFIG_FILE`).
public enum ConfigurationSources {
    /// - Parameters:
    ///   - flags: values given on the command line, by ``ConfigurationKey``.
    ///   - environment: the process environment; only `VERDICT_*` variables are read.
    ///   - configFile: a JSON file whose nested keys mirror the configuration keys
    ///     (`{"database": {"url": "sqlite:verdict.sqlite"}, "port": 8080}`).
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
            stripped[String(name.dropFirst("VERDICT_".count))] = value
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
            let location = ConfigReader(provider: InMemoryProvider(values: [
                "filePath": ConfigValue(.string(file), isSecret: false)
            ]))
            do {
                providers.append(try await FileProvider<JSONSnapshot>(config: location))
            } catch {
                throw ConfigurationError(.configFile, "cannot be read as JSON: '\(file)' (\(error))")
            }
        }
        return ConfigReader(providers: providers)
    }
}
