import Crypto
import Foundation

/// The configured API tokens, kept as SHA-256 digests with their roles, and looked up in constant
/// time: every configured token is examined whatever matches, and digests of equal length are
/// compared without early exit.
struct TokenDirectory: Sendable {
    private let digests: [(digest: SHA256Digest, role: APIToken.Role)]

    init(tokens: [APIToken]) {
        digests = tokens.map { (SHA256.hash(data: Data($0.token.utf8)), $0.role) }
    }

    /// The role of `token` when it is configured, nil otherwise.
    func role(of token: String) -> APIToken.Role? {
        let presented = SHA256.hash(data: Data(token.utf8))
        var matched: APIToken.Role?
        for (digest, role) in digests {
            var difference: UInt8 = 0
            for (a, b) in zip(digest, presented) { difference |= a ^ b }
            if difference == 0, matched == nil { matched = role }
        }
        return matched
    }
}
