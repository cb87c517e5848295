import Foundation

/// Base64URL (RFC 4648 §5) without padding, as used by JWS compact serialisation.
public enum Base64URL {
    /// Encodes bytes as unpadded Base64URL.
    public static func encode(_ data: some DataProtocol) -> String {
        var text = Data(data).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    /// Decodes unpadded or padded Base64URL; returns nil for any character outside the alphabet
    /// or an impossible length.
    public static func decode(_ text: some StringProtocol) -> Data? {
        var standard = String(text)
        if standard.contains("+") || standard.contains("/") { return nil }
        standard = standard.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let remainder = standard.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { standard += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: standard)
    }
}
