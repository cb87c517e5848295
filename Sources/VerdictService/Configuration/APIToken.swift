import Configuration

/// A bearer token and what it grants: a role and the apps it acts for. In `VERDICT_API_TOKENS` an
/// entry may name its role as a prefix — `app:TOKEN`, `viewer:TOKEN`, `operator:TOKEN` — and a plain
/// `TOKEN` grants everything, as an operator's does; such a token acts for every app. The config
/// file's `"apiTokens"` may also hold objects, `{"token": "…", "role": "app", "apps": ["com.a"]}`,
/// that limit a token to some of the configured apps.
public struct APIToken: Sendable, Equatable, CustomStringConvertible {
    /// What a token may do (``AccessPolicy`` says which role reaches which endpoint).
    public enum Role: String, Sendable, CaseIterable, Codable {
        /// The app backend: offers and their signatures, attributes, consent, transaction facts.
        case app
        /// Product managers and dashboards: the read-only API (no signatures), rules, replays.
        case viewer
        /// Everything, including jobs and metrics.
        case `operator`
    }

    public var role: Role
    /// The secret itself (never printed: ``description`` shows the role only).
    public var token: String
    /// The bundle ids of the apps the token acts for; nil: every app.
    public var apps: Set<String>?

    public init(role: Role, token: String, apps: Set<String>? = nil) {
        self.role = role
        self.token = token
        self.apps = apps
    }

    /// Reads one entry: a known role prefix, or a plain token with every right; for every app.
    public init(entry: String) {
        for role in Role.allCases where entry.hasPrefix(role.rawValue + ":") {
            self.init(role: role, token: String(entry.dropFirst(role.rawValue.count + 1)))
            return
        }
        self.init(role: .operator, token: entry)
    }

    public var description: String {
        guard let apps else { return "\(role.rawValue) token" }
        return "\(role.rawValue) token for \(apps.sorted().joined(separator: ", "))"
    }
}

extension APIToken {
    /// The members an object entry of the config file's `"apiTokens"` may hold.
    static let fileMembers = ["token", "role", "apps"]
    private static let fileEntry = ConfigurationKey("entry", isSecret: true)
    private static let fileToken = ConfigurationKey("token", isSecret: true)
    private static let fileRole = ConfigurationKey("role")
    private static let fileApps = ConfigurationKey("apps")

    /// The configured tokens: `VERDICT_API_TOKENS` (or its flag) when set, which replaces the file's
    /// whole list; otherwise the file's `"apiTokens"`. Each must hold at least 16 characters, and a
    /// token's apps must be among `apps`. Errors name an entry by its position, never its token.
    static func configured(reader: ConfigReader, settings: SettingReader, apps: Set<String>) throws(ConfigurationError) -> [APIToken] {
        guard settings.string(.apiTokens) == nil, let count = reader.int(forKey: ConfigurationFile.tokenCountKey) else {
            let tokens = settings.list(.apiTokens).map(APIToken.init(entry:))
            if tokens.contains(where: { $0.token.count < 16 }) {
                throw ConfigurationError(.apiTokens, "contains a token shorter than 16 characters")
            }
            return tokens
        }
        var tokens: [APIToken] = []
        for position in 0..<count {
            let scoped = reader.scoped(to: ConfigurationFile.tokenKey(position))
            let entry = SettingReader(reader: scoped)
            func refuse(_ problem: String) -> ConfigurationError {
                ConfigurationError(.apiTokens, "entry apiTokens[\(position)] \(problem)")
            }
            let token: APIToken
            if scoped.string(forKey: ConfigKey(fileEntry.key), isSecret: true) != nil {
                // An empty entry counts as none, as in VERDICT_API_TOKENS.
                guard let text = entry.string(fileEntry) else { continue }
                token = APIToken(entry: text)
            } else {
                guard let secret = entry.string(fileToken) else { throw refuse("has no token") }
                let roles = Role.allCases.map(\.rawValue).joined(separator: ", ")
                guard let name = entry.string(fileRole), let role = Role(rawValue: name) else {
                    throw refuse("must name its role: one of \(roles)")
                }
                var tokenApps: Set<String>?
                if entry.string(fileApps) != nil || scoped.stringArray(forKey: ConfigKey(fileApps.key)) != nil {
                    let names = entry.list(fileApps)
                    guard !names.isEmpty else { throw refuse("lists no app") }
                    if let unknown = names.first(where: { !apps.contains($0) }) {
                        throw refuse("names app '\(unknown)', which is not configured (configured: \(apps.sorted().joined(separator: ", ")))")
                    }
                    tokenApps = Set(names)
                }
                token = APIToken(role: role, token: secret, apps: tokenApps)
            }
            guard token.token.count >= 16 else { throw refuse("is shorter than 16 characters") }
            tokens.append(token)
        }
        return tokens
    }
}
