/// A bearer token of `VERDICT_API_TOKENS` and the role it grants. An entry may name its role as a
/// prefix — `app:TOKEN`, `viewer:TOKEN`, `operator:TOKEN` — and a plain `TOKEN` grants everything,
/// as an operator's does.
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

    public init(role: Role, token: String) {
        self.role = role
        self.token = token
    }

    /// Reads one entry: a known role prefix, or a plain token with every right.
    public init(entry: String) {
        for role in Role.allCases where entry.hasPrefix(role.rawValue + ":") {
            self.init(role: role, token: String(entry.dropFirst(role.rawValue.count + 1)))
            return
        }
        self.init(role: .operator, token: entry)
    }

    public var description: String { "\(role.rawValue) token" }
}
