import AppStoreServer
import Crypto
import Foundation

/// The PNG files `messages.yaml` declares (``RetentionMessages/images``), read from the bundle
/// folder and held to what the file records and Apple requires: the file exists, its SHA-256 is
/// the one recorded (so Apple's image identifier names exactly these bytes), and it is an opaque
/// PNG of the right size. `RuleBundle.load(directory:)` checks them with the rest of the bundle;
/// `verdict appstore messages sync` reads them through ``read(_:directory:)`` to upload.
public enum RetentionImageFiles {
    /// Why an image file cannot be used.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let image: RetentionMessages.Image
        public let reason: String
        public var description: String { "image \(image.id) (\(image.file)): \(reason)" }

        public init(image: RetentionMessages.Image, reason: String) {
            self.image = image
            self.reason = reason
        }
    }

    /// The file of `image` in `directory`, after every check.
    public static func read(_ image: RetentionMessages.Image, directory: String) throws(Problem) -> Data {
        let url = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(image.file)
        guard let data = try? Data(contentsOf: url) else { throw Problem(image: image, reason: "the file does not exist or cannot be read") }
        let digest = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
        guard digest == image.sha256 else {
            throw Problem(image: image, reason: "the file's sha256 is \(digest); messages.yaml records \(image.sha256)")
        }
        let header: PNGImageHeader
        do {
            header = try PNGImageHeader.read(data)
        } catch {
            throw Problem(image: image, reason: error.description)
        }
        if let problem = header.retentionImageProblem(size: image.size) { throw Problem(image: image, reason: problem) }
        return data
    }

    /// An error per declared image that fails ``read(_:directory:)``, at its line of `messagesFile`.
    static func check(_ messages: RetentionMessages, directory: String, messagesFile: BundleSourceFile?) -> [RuleDiagnostic] {
        messages.images.compactMap { image -> RuleDiagnostic? in
            do throws(Problem) {
                _ = try read(image, directory: directory)
                return nil
            } catch {
                let line = messagesFile.flatMap { $0.lines.indices.contains(image.line - 1) ? String($0.lines[image.line - 1]) : nil }
                let help = error.reason.hasPrefix("the file's sha256")
                    ? "a changed image is a new image for Apple: record the new sha256 (`sha256sum \(image.file)`)" : nil
                return RuleDiagnostic(
                    .error, at: BundleLocation(file: messagesFile?.path ?? "messages.yaml", line: image.line, column: 1),
                    message: error.description, sourceLine: line ?? "", help: help)
            }
        }
    }
}
