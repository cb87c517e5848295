import Crypto
import Foundation

/// The configured API tokens, kept as SHA-256 digests with their roles, and looked up in constant
/// time: every configured token is examined whatever matches, and digests of equal length are
/// compared without early exit.
struct TokenDirectory: Sendable {
    /// What a token grants: its role and the apps it acts for (nil: every app).
    struct Grant: Sendable, Equatable {
        var role: APIToken.Role
        var apps: Set<String>?

        /// Whether it opens the console (an app backend's token does not).
        var opensConsole: Bool { role != .app }
    }

    private let digests: [(digest: SHA256Digest, grant: Grant)]

    init(tokens: [APIToken]) {
        digests = tokens.map { (SHA256.hash(data: Data($0.token.utf8)), Grant(role: $0.role, apps: $0.apps)) }
    }

    /// What `token` grants when it is configured, nil otherwise.
    func grant(of token: String) -> Grant? {
        grant(digest: Array(SHA256.hash(data: Data(token.utf8))))
    }

    /// What a console session keeps of the token it was opened with: HMAC-SHA256 of the token's
    /// SHA-256, keyed by the session id (which only the browser holds), in hex — nothing a token
    /// could be guessed from without the cookie.
    static func sessionBinding(of token: String, sessionId: String) -> String {
        hex(binding(SHA256.hash(data: Data(token.utf8)), sessionId: sessionId))
    }

    /// What the token a session is bound to (``sessionBinding(of:sessionId:)``) grants while it is
    /// configured; nil otherwise. Every configured token is examined, compared in constant time.
    func grant(sessionBinding stored: String, sessionId: String) -> Grant? {
        first(matching: Array(stored.utf8)) { Array(Self.hex(Self.binding($0, sessionId: sessionId)).utf8) }
    }

    private func grant(digest presented: [UInt8]) -> Grant? {
        first(matching: presented) { Array($0) }
    }

    /// The grant of the first token whose `value` is `presented`, examining every token without
    /// early exit.
    private func first(matching presented: [UInt8], value: (SHA256Digest) -> [UInt8]) -> Grant? {
        var matched: Grant?
        for (digest, grant) in digests {
            let candidate = value(digest)
            guard candidate.count == presented.count else { continue }
            var difference: UInt8 = 0
            for (a, b) in zip(candidate, presented) { difference |= a ^ b }
            if difference == 0, matched == nil { matched = grant }
        }
        return matched
    }

    private static func binding(_ digest: SHA256Digest, sessionId: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array(digest), using: SymmetricKey(data: Data(sessionId.utf8))))
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
