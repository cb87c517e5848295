import Foundation
import RuleEngine

/// Candidate bundles for the replay tests: the shipped rules as a request body, with an edit.
enum ReplayCandidates {
    /// The shipped bundle's files, name → text.
    static func shipped() throws -> [String: String] {
        try RuleBundleFiles.read(directory: ServiceHarness.rulesDirectory).reduce(into: [:]) { $0[$1.name] = $1.text }
    }

    /// The shipped files with `old` replaced by `new` in `file`.
    static func shipped(editing file: String, _ old: String, _ new: String) throws -> [String: String] {
        var files = try shipped()
        guard let text = files[file], text.contains(old) else { throw ServiceTestError("\(file) does not contain \(old)") }
        files[file] = text.replacingOccurrences(of: old, with: new)
        return files
    }

    /// `POST /v1/rules/replay`'s JSON body.
    static func body(_ files: [String: String], _ settings: [String: Any] = [:]) throws -> Data {
        var object: [String: Any] = settings
        object["files"] = files
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}
