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
        grant(digest: Array(SHA256.hash(data: Data(token.utf8))))
    }

    /// What the token whose SHA-256 is `hex` (``digest(of:)``) grants when it is still configured,
    /// nil otherwise (or when `hex` is not a digest).
    func grant(digestHex hex: String) -> Grant? {
        guard hex.utf8.count == 64, let bytes = Self.bytes(hex: hex) else { return nil }
        return grant(digest: bytes)
    }

    /// A token's SHA-256 in hex: what a console session keeps to find its token again.
    static func digest(of token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private func grant(digest presented: [UInt8]) -> Grant? {
        var matched: Grant?
        for (digest, grant) in digests {
            var difference: UInt8 = 0
            for (a, b) in zip(digest, presented) { difference |= a ^ b }
            if difference == 0, matched == nil { matched = grant }
        }
        return matched
    }

    private static func bytes(hex: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            guard let h = nibble(high), let l = nibble(low) else { return nil }
            bytes.append(h << 4 | l)
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
