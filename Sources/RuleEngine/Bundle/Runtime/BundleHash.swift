import Crypto

/// The bundle's identity: SHA-256 over its files sorted by name, each as its
/// name (relative to the bundle folder), a NUL byte, its byte count, a NUL byte and its bytes — so renaming a file or moving
/// text between files changes the hash. Printed as `sha256:<64 hex digits>`.
public enum BundleHash {
    /// The hash of `files` (order-independent: they are sorted by name first).
    public static func compute(_ files: [BundleSourceFile]) -> String {
        var hasher = SHA256()
        for file in files.sorted(by: { $0.name < $1.name }) {
            let bytes = Array(file.text.utf8)
            hasher.update(data: Array(file.name.utf8) + [0] + Array(String(bytes.count).utf8) + [0])
            hasher.update(data: bytes)
        }
        let hex = hasher.finalize().map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
        }
        return "sha256:" + hex.joined()
    }
}
