import Configuration
import Foundation
import Logging
import VerdictStorage

/// Reads one setting of ``ConfigurationKey`` at a time and parses it into its typed value; every
/// failure is a ``ConfigurationError`` naming the setting. An empty value counts as unset.
///
/// Values are text (flags and environment variables are), but a JSON config file may give a number,
/// a boolean or an array of strings or numbers (`"port": 8080`, `"apiTokens": ["…", "…"]`): these
/// are read as their text (`8080`, a comma-separated list) and parsed like it, never silently ignored.
///
/// An app entry of the config file is read with ``defaults``: a setting the entry leaves unset is
/// read from the top level.
struct SettingReader {
    let reader: ConfigReader
    /// Where a setting `reader` leaves unset is read from (the top level, for an app entry).
    var defaults: ConfigReader? = nil

    /// The same settings without ``defaults``: what the app entry itself sets.
    var withoutDefaults: SettingReader { SettingReader(reader: reader) }

    /// The trimmed text of `key`, or nil when unset or empty (in `reader`, then in ``defaults``).
    func string(_ key: ConfigurationKey) -> String? {
        if let value = Self.text(of: key, in: reader) { return value }
        return defaults.flatMap { Self.text(of: key, in: $0) }
    }

    /// The trimmed text of `key` in `reader`, whatever kind of value the source gave.
    private static func text(of key: ConfigurationKey, in reader: ConfigReader) -> String? {
        let configKey = ConfigKey(key.key)
        // One lookup per statement: a chain of `??` over the overloaded readers took the type
        // checker two seconds.
        var text: String? = reader.string(forKey: configKey, isSecret: key.isSecret)
        if text == nil, let number: Int = reader.int(forKey: configKey, isSecret: key.isSecret) { text = String(number) }
        if text == nil, let number: Double = reader.double(forKey: configKey, isSecret: key.isSecret) { text = String(number) }
        if text == nil, let flag: Bool = reader.bool(forKey: configKey, isSecret: key.isSecret) { text = String(flag) }
        if text == nil, let items: [String] = reader.stringArray(forKey: configKey, isSecret: key.isSecret) {
            text = items.joined(separator: ",")
        }
        if text == nil, let numbers: [Int] = reader.intArray(forKey: configKey, isSecret: key.isSecret) {
            text = numbers.map(String.init).joined(separator: ",")
        }
        guard let value = text?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    /// The comma-separated items of `key` (trimmed, empty ones dropped).
    func list(_ key: ConfigurationKey) -> [String] {
        (string(key) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    func integer(_ key: ConfigurationKey, default value: Int, range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let text = string(key) else { return value }
        guard let parsed = Int(text), range.contains(parsed) else {
            throw ConfigurationError(key, "must be an integer in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
        }
        return parsed
    }

    /// A whole number of `unit`s (seconds, days) in `range` as a duration.
    func duration(
        _ key: ConfigurationKey, default value: Int, range: ClosedRange<Int>, unit: Duration = .seconds(1)
    ) throws(ConfigurationError) -> Duration {
        unit * (try integer(key, default: value, range: range))
    }

    func boolean(_ key: ConfigurationKey, default value: Bool) throws(ConfigurationError) -> Bool {
        guard let text = string(key)?.lowercased() else { return value }
        switch text {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: throw ConfigurationError(key, "must be true or false, got '\(text)'")
        }
    }

    /// An absolute `http` or `https` URL with a host, or nil when unset.
    func httpURL(_ key: ConfigurationKey) throws(ConfigurationError) -> URL? {
        guard let text = string(key) else { return nil }
        guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ConfigurationError(key, "must be an http(s) URL, got '\(text)'")
        }
        return url
    }

    /// A database URL, parsed strictly (``DatabaseURL/init(parsing:)``); the error never echoes the
    /// value, which may hold a password.
    func databaseURL(_ key: ConfigurationKey, default value: String) throws(ConfigurationError) -> DatabaseURL {
        do throws(StorageError) {
            return try DatabaseURL(parsing: string(key) ?? value)
        } catch {
            guard case .invalidDatabaseURL(let reason) = error else { throw ConfigurationError(key, "is invalid") }
            throw ConfigurationError(key, "is not a valid database URL: \(reason)")
        }
    }

    /// A host name or IP address to listen on (an IPv6 address without brackets).
    func host(_ key: ConfigurationKey, default value: String) throws(ConfigurationError) -> String {
        guard let text = string(key) else { return value }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-_:%"))
        guard text.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) }) else {
            throw ConfigurationError(key, "must be a host name or an IP address (IPv6 without brackets), got '\(text)'")
        }
        return text
    }

    /// A folder path: unset gives `value`; a path that exists but is not a folder is refused (a
    /// folder that does not exist yet is accepted and read once it appears).
    func directory(_ key: ConfigurationKey, default value: String) throws(ConfigurationError) -> String {
        let path = string(key) ?? value
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ConfigurationError(key, "must be a folder, but '\(path)' is a file")
        }
        return path
    }

    /// An app's bundle id (required: `purpose` says what for): letters, digits, '.', '-' and '_'.
    func bundleId(_ key: ConfigurationKey, _ purpose: String) throws(ConfigurationError) -> String {
        guard let bundleId = string(key) else { throw ConfigurationError(key, "is required: \(purpose)") }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-_"))
        guard bundleId.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) }) else {
            throw ConfigurationError(key, "must hold only letters, digits, '.', '-' and '_', got '\(bundleId)'")
        }
        return bundleId
    }

    /// A swift-log level name.
    func logLevel(_ key: ConfigurationKey, default value: Logger.Level) throws(ConfigurationError) -> Logger.Level {
        guard let text = string(key) else { return value }
        guard let level = Logger.Level(rawValue: text) else {
            let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(key, "must be one of \(names), got '\(text)'")
        }
        return level
    }
}
