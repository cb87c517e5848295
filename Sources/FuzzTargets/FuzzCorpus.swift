import Foundation

/// The committed inputs of the fuzz targets, in the repository this file belongs to:
/// `Fuzz/TARGET/corpus` (seeds) and `Fuzz/TARGET/crashes` (regressions, each once a finding). The
/// replay tests read them; `Scripts/fuzz.sh` hands the same folders to libFuzzer.
public enum FuzzCorpus {
    /// The repository's root folder.
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The files of `Fuzz/target/folder` (`corpus` or `crashes`) with their names, sorted by name;
    /// none when the folder does not exist (git keeps no empty folder).
    public static func inputs(_ target: String, _ folder: String) throws -> [(name: String, data: Data)] {
        let directory = repository.appendingPathComponent("Fuzz").appendingPathComponent(target).appendingPathComponent(folder)
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
            ($0, try Data(contentsOf: directory.appendingPathComponent($0)))
        }
    }
}
