import Configuration
import Foundation

/// The JSON config file (`--config FILE`, `VERDICT_CONFIG_FILE`) as swift-configuration values.
///
/// swift-configuration's JSON provider refuses arrays of objects, so the file is read here: its
/// settings become values under the same nested keys and of the same kinds that provider gives
/// (strings, numbers, booleans, arrays of strings or of numbers; `null` is unset), and the two
/// arrays that may hold objects are laid out by position under keys of their own:
/// - `"apps"` (one object per app) as `apps.count` and `apps.<position>.<setting>`; an entry may
///   hold only per-app settings (``AppConfiguration/keys``);
/// - `"apiTokens"` as `apiTokens.count` and, per entry, `apiTokens.<position>.entry` (a
///   `"role:token"` string) or `.token`, `.role` and `.apps` (an object).
///
/// Secret settings (``ConfigurationKey/isSecret``, every `apiTokens` value) are marked secret.
struct ConfigurationFile {
    /// The file's values, ready for an `InMemoryProvider`.
    private(set) var values: [AbsoluteConfigKey: ConfigValue] = [:]

    /// How many `"apps"` entries the file has (unset without `"apps"`).
    static let appCountKey = ConfigKey("apps.count")
    /// The key an `"apps"` entry's settings are read under (``ConfigReader/scoped(to:)``).
    static func appKey(_ position: Int) -> ConfigKey { ConfigKey(["apps", String(position)]) }
    /// How many `"apiTokens"` entries the file lists (unset when it gives none, or a plain string).
    static let tokenCountKey = ConfigKey("apiTokens.count")
    /// The key an `"apiTokens"` entry is read under.
    static func tokenKey(_ position: Int) -> ConfigKey { ConfigKey(["apiTokens", String(position)]) }
    /// Names of `VERDICT_*` variables (without the prefix) that would reach the keys above; they
    /// are not read, so only the file sets them.
    static let reservedEnvironmentPrefixes = ["APPS_", "API_TOKENS_"]

    /// Reads and lays out the file; an unreadable file, invalid JSON or a value of a kind no setting
    /// takes is an error naming the file, a malformed entry of `"apps"` one naming the app.
    init(path: String) throws(ConfigurationError) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ConfigurationError(.configFile, "cannot be read as JSON: '\(path)' (\(error))")
        }
        guard let settings = object as? [String: Any] else {
            throw ConfigurationError(.configFile, "must hold a JSON object: '\(path)'")
        }
        for (name, value) in settings {
            guard name != "apps" else {
                try addApps(value, path: path)
                continue
            }
            if name == "apiTokens", let entries = value as? [Any] {
                try addTokens(entries, path: path)
                continue
            }
            do throws(FileProblem) {
                try add(value, at: Self.components(name))
            } catch {
                throw ConfigurationError(.configFile, "cannot be read: '\(path)': \(error.keyPath) \(error.problem)")
            }
        }
    }

    /// No values (an app entry's, before they are checked).
    private init() {}

    /// A value at `keyPath` of a kind no setting takes.
    private struct FileProblem: Error {
        var keyPath: String
        var problem: String
    }

    /// Adds `value` (an object's members recursively) under `keyPath`.
    private mutating func add(_ value: Any, at keyPath: [String]) throws(FileProblem) {
        if let object = value as? [String: Any] {
            for (name, member) in object { try add(member, at: keyPath + Self.components(name)) }
            return
        }
        guard let content = try Self.content(of: value, at: keyPath) else { return }
        values[AbsoluteConfigKey(keyPath)] = ConfigValue(content, isSecret: Self.isSecret(keyPath))
    }

    /// The `"apps"` array: each entry an object of per-app settings.
    private mutating func addApps(_ value: Any, path: String) throws(ConfigurationError) {
        guard let entries = value as? [Any], !entries.isEmpty else {
            throw ConfigurationError(.configFile, "'\(path)': \"apps\" must be a non-empty array of app objects")
        }
        let perApp = Set(AppConfiguration.keys.map(\.key))
        for (position, entry) in entries.enumerated() {
            let keyPath = ["apps", String(position)]
            guard let object = entry as? [String: Any] else {
                throw ConfigurationError(.apps, "entries must be objects of per-app settings, got \(Self.kind(of: entry))", app: "apps[\(position)]")
            }
            let label = (object["bundleId"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "apps[\(position)]"
            var entryValues = ConfigurationFile()
            do throws(FileProblem) {
                try entryValues.add(object, at: keyPath)
            } catch {
                let setting = error.keyPath.split(separator: ".").dropFirst(2).joined(separator: ".")
                throw ConfigurationError(.apps, "entry setting \(setting) \(error.problem)", app: label)
            }
            for key in entryValues.values.keys {
                let setting = key.components.dropFirst(2).joined(separator: ".")
                guard perApp.contains(setting) else {
                    if let processWide = ConfigurationKey.all.first(where: { $0.key == setting }) {
                        throw ConfigurationError(processWide, "is process-wide: set it at the top level, not in an app entry", app: label)
                    }
                    throw ConfigurationError(.apps, "entries hold per-app settings only, and '\(setting)' is none", app: label)
                }
            }
            values.merge(entryValues.values) { _, new in new }
        }
        values[AbsoluteConfigKey(Self.appCountKey)] = ConfigValue(.int(entries.count), isSecret: false)
    }

    /// The `"apiTokens"` array: `"role:token"` strings and `{"token", "role", "apps"}` objects.
    /// An error names the entry by its position, never its token.
    private mutating func addTokens(_ entries: [Any], path: String) throws(ConfigurationError) {
        for (position, entry) in entries.enumerated() {
            let keyPath = ["apiTokens", String(position)]
            func refuse(_ problem: String) -> ConfigurationError {
                ConfigurationError(.apiTokens, "entry apiTokens[\(position)] \(problem)")
            }
            switch entry {
            case let text as String:
                values[AbsoluteConfigKey(keyPath + ["entry"])] = ConfigValue(.string(text), isSecret: true)
            case let object as [String: Any]:
                if let unknown = object.keys.sorted().first(where: { !APIToken.fileMembers.contains($0) }) {
                    throw refuse("has no member '\(unknown)' (known: \(APIToken.fileMembers.joined(separator: ", ")))")
                }
                do throws(FileProblem) {
                    try add(object, at: keyPath)
                } catch {
                    throw refuse("has a member of the wrong kind: \(error.keyPath.split(separator: ".").dropFirst(2).joined(separator: ".")) \(error.problem)")
                }
            default:
                throw refuse("must be a \"role:token\" string or an object, got \(Self.kind(of: entry))")
            }
        }
        values[AbsoluteConfigKey(Self.tokenCountKey)] = ConfigValue(.int(entries.count), isSecret: false)
    }

    /// The swift-configuration content of a JSON value that is not an object (nil for `null`),
    /// kinds tried in the order swift-configuration's JSON provider tries them.
    private static func content(of value: Any, at keyPath: [String]) throws(FileProblem) -> ConfigContent? {
        switch value {
        case is NSNull: return nil
        case let text as String: return .string(text)
        case let number as Int: return .int(number)
        case let number as Double: return .double(number)
        case let flag as Bool: return .bool(flag)
        case let items as [Any]:
            if let texts = items as? [String] { return .stringArray(texts) }
            if let numbers = items as? [Int] { return .intArray(numbers) }
            if let numbers = items as? [Double] { return .doubleArray(numbers) }
            if let flags = items as? [Bool] { return .boolArray(flags) }
            throw FileProblem(keyPath: keyPath.joined(separator: "."), problem: "must be an array of strings or of numbers")
        default:
            throw FileProblem(keyPath: keyPath.joined(separator: "."), problem: "holds a value of an unsupported kind (\(type(of: value)))")
        }
    }

    /// The key components of a member name: a dotted name nests (`"rules.dir"` is `rules` → `dir`),
    /// as in swift-configuration's JSON provider.
    private static func components(_ name: String) -> [String] {
        name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// Whether the value at `keyPath` is a secret: a secret setting's, in an app entry or not, or
    /// any part of an API token.
    private static func isSecret(_ keyPath: [String]) -> Bool {
        let setting = keyPath.first == "apps" ? keyPath.dropFirst(2) : keyPath[...]
        let name = setting.joined(separator: ".")
        return keyPath.first == "apiTokens" || ConfigurationKey.all.contains { $0.isSecret && $0.key == name }
    }

    /// "a string", "an array", … for an error about a JSON value.
    private static func kind(of value: Any) -> String {
        switch value {
        case is String: "a string"
        case is [Any]: "an array"
        case is NSNull: "null"
        default: "a number or boolean"
        }
    }
}
