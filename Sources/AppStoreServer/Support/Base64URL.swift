import Foundation

/// Base64URL (RFC 4648 §5), as used by JWS compact serialisation.
///
/// Both directions work on bytes: string-replacement based conversion costs hundreds of
/// microseconds per multi-kilobyte `x5c` header on Linux, more than the ECDSA verification itself.
public enum Base64URL {
    /// Encodes bytes as unpadded Base64URL.
    public static func encode(_ data: some DataProtocol) -> String {
        let standard = Data(data).base64EncodedData()
        var length = standard.count
        while length > 0, standard[length - 1] == UInt8(ascii: "=") { length -= 1 }
        return standard.withUnsafeBytes { (source: UnsafeRawBufferPointer) in
            String(unsafeUninitializedCapacity: length) { target in
                for index in 0..<length {
                    let byte = source[index]
                    target[index] = byte == UInt8(ascii: "+")
                        ? UInt8(ascii: "-") : (byte == UInt8(ascii: "/") ? UInt8(ascii: "_") : byte)
                }
                return length
            }
        }
    }

    /// Decodes Base64URL with or without padding; nil for an empty input, any character outside
    /// the URL-safe alphabet (`+` and `/` included), stray padding or an impossible length.
    public static func decode(_ text: some StringProtocol) -> Data? {
        var text = String(text)
        return text.withUTF8 { decode(bytes: $0) }
    }

    /// Decodes the UTF-8 bytes of one Base64URL segment; same rules as ``decode(_:)``.
    public static func decode(bytes input: UnsafeBufferPointer<UInt8>) -> Data? {
        var length = input.count
        while length > 0, input[length - 1] == UInt8(ascii: "="), input.count - length < 2 {
            length -= 1
        }
        if length != input.count, input.count % 4 != 0 { return nil }
        guard length > 0, length % 4 != 1 else { return nil }

        let paddedLength = (length + 3) / 4 * 4
        var standard = Data(count: paddedLength)
        let valid = standard.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) -> Bool in
            guard let source = input.baseAddress,
                  let target = out.bindMemory(to: UInt8.self).baseAddress
            else { return false }
            // Branch-free so the loop vectorises: map `-`→`+`, `_`→`/`, flag characters that
            // standard Base64 accepts but Base64URL does not (`+`, `/`, `=` before the end).
            var foreign: UInt8 = 0
            for index in 0..<length {
                let byte = source[index]
                foreign |= (byte == UInt8(ascii: "+") ? 1 : 0) | (byte == UInt8(ascii: "/") ? 1 : 0)
                    | (byte == UInt8(ascii: "=") ? 1 : 0)
                target[index] = byte == UInt8(ascii: "-")
                    ? UInt8(ascii: "+") : (byte == UInt8(ascii: "_") ? UInt8(ascii: "/") : byte)
            }
            for index in length..<paddedLength {
                target[index] = UInt8(ascii: "=")
            }
            return foreign == 0
        }
        guard valid else { return nil }
        return Data(base64Encoded: standard)
    }
}
