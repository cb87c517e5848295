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
    }

    private let digests: [(digest: SHA256Digest, grant: Grant)]

    init(tokens: [APIToken]) {
        digests = tokens.map { (SHA256.hash(data: Data($0.token.utf8)), Grant(role: $0.role, apps: $0.apps)) }
    }

    /// What `token` grants when it is configured, nil otherwise.
    func grant(of token: String) -> Grant? {
        let presented = SHA256.hash(data: Data(token.utf8))
        var matched: Grant?
        for (digest, grant) in digests {
            var difference: UInt8 = 0
            for (a, b) in zip(digest, presented) { difference |= a ^ b }
            if difference == 0, matched == nil { matched = grant }
        }
        return matched
    }
}
