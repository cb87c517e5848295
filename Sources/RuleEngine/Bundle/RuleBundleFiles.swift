#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a bundle folder: `catalog.yaml`, `messages.yaml`, every `*.rules.yaml` and every `*.tests.yaml` directly
/// inside it (sub-folders such as `schema/` and other files are not part of the bundle).
public enum RuleBundleFiles {
    /// A folder that cannot be read.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        /// The folder or file.
        public let path: String
        /// What went wrong.
        public let message: String

        /// As a diagnostic at the path's first line.
        public var diagnostic: RuleDiagnostic {
            RuleDiagnostic(.error, at: BundleLocation(file: path, line: 1, column: 1), message: message, sourceLine: "")
        }

        public var description: String { "\(path): \(message)" }
    }

    /// Whether `name` is part of a bundle.
    public static func isBundleFile(_ name: String) -> Bool {
        name == "catalog.yaml" || name == "messages.yaml" || name.hasSuffix(".rules.yaml") || name.hasSuffix(".tests.yaml")
    }

    /// The bundle files of `directory`, sorted by name; each file's printed path is
    /// `directory/name`.
    public static func read(directory: String) throws(ReadError) -> [BundleSourceFile] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw ReadError(path: directory, message: "cannot list the bundle folder")
        }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        var files: [BundleSourceFile] = []
        for name in names.sorted() where isBundleFile(name) {
            let path = prefix + name
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ReadError(path: path, message: "cannot read the file")
            }
            guard let text = String(data: data, encoding: .utf8) else {
                throw ReadError(path: path, message: "the file is not UTF-8 text")
            }
            files.append(BundleSourceFile(path: path, text: text))
        }
        guard files.contains(where: { $0.name.hasSuffix(".rules.yaml") }) else {
            throw ReadError(path: directory, message: "no *.rules.yaml file in the bundle folder")
        }
        return files
    }
}
