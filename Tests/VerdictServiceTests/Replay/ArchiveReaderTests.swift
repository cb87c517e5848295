import Foundation
import Testing
@testable import VerdictService
import VerdictRequests

/// The tar and zip readers of replay uploads, on archives made by `tar` and Python's `zipfile`,
/// and on hostile ones: corrupted, truncated, lying about their sizes, encrypted.
@Suite struct ArchiveReaderTests {
    /// A zip of `files` made by Python's `zipfile` (`compression`: `ZIP_STORED` or `ZIP_DEFLATED`).
    static func zip(_ files: [String: String], compression: String = "ZIP_DEFLATED") throws -> Data {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: files, options: [.sortedKeys]), as: UTF8.self)
        return try ReplayRoutesTests.output(of: ["python3", "-c", """
            import io, json, sys, zipfile
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.\(compression)) as archive:
                for name, text in json.loads(sys.argv[1]).items():
                    archive.writestr(name, text)
            sys.stdout.buffer.write(buffer.getvalue())
            """, json])
    }

    static let files = ["Rules/a.rules.yaml": String(repeating: "schema: 1\n", count: 200), "Rules/catalog.yaml": "currencies: [USD]\n",
                        "Rules/empty.tests.yaml": ""]

    @Test(arguments: ["ZIP_DEFLATED", "ZIP_STORED"])
    func zipEntriesAreReadStoredOrDeflated(_ compression: String) throws {
        let entries = try ZipArchive.files(in: try Self.zip(Self.files, compression: compression), limit: 1 << 20)
        #expect(Dictionary(uniqueKeysWithValues: entries.map { ($0.path, String(decoding: $0.contents, as: UTF8.self)) }) == Self.files)
    }

    @Test func hostileZipsAreRefused() throws {
        let good = [UInt8](try Self.zip(Self.files))
        func refused(_ bytes: [UInt8], limit: Int = 1 << 20) -> String? {
            do {
                _ = try ZipArchive.files(in: Data(bytes), limit: limit)
                return nil
            } catch {
                return error.reason
            }
        }
        // The first entry's central directory record: its fields at fixed offsets.
        let directory = try #require(Self.offset(of: [0x50, 0x4b, 0x01, 0x02], in: good))
        var corrupted = good
        corrupted[60] ^= 0xFF  // inside the first entry's deflated data
        #expect(refused(corrupted) != nil)
        var lying = good
        lying[directory + 24] = 0xFF; lying[directory + 25] = 0xFF; lying[directory + 26] = 0xFF; lying[directory + 27] = 0x7F
        #expect(refused(lying)?.contains("larger than") == true, "a declared size over the limit is refused before inflating")
        var encrypted = good
        encrypted[directory + 8] |= 1
        #expect(refused(encrypted)?.contains("encrypted") == true)
        var method = good
        method[directory + 10] = 12  // bzip2
        #expect(refused(method)?.contains("compression method 12") == true)
        #expect(refused(Array(good.prefix(good.count - 30))) != nil, "truncated")
        #expect(refused(Array(repeating: 0x50, count: 200)) != nil)
        #expect(refused([]) != nil)
        #expect(refused(good, limit: 100)?.contains("larger than 100 bytes") == true)
    }

    @Test func tarEntriesAreReadAndHostileTarsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-tar-\(UUID().uuidString)")
        let nested = directory.appendingPathComponent("Rules/" + String(repeating: "long-folder-name-", count: 8))
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("schema: 1\n".utf8).write(to: directory.appendingPathComponent("Rules/a.rules.yaml"))
        try Data("deep".utf8).write(to: nested.appendingPathComponent("deep.rules.yaml"))
        let tar = [UInt8](try ReplayRoutesTests.output(of: ["tar", "-cf", "-", "-C", directory.path, "Rules"]))
        let entries = try TarArchive.files(in: Data(tar))
        #expect(entries.contains { $0.path == "Rules/a.rules.yaml" && $0.contents == Data("schema: 1\n".utf8) })
        #expect(entries.contains { $0.path.hasSuffix("/deep.rules.yaml") && $0.path.count > 100 }, "GNU long names are read")
        var corrupted = tar
        corrupted[10] ^= 0x20  // a header byte: the checksum no longer matches
        #expect(throws: TarArchive.Malformed.self) { try TarArchive.files(in: Data(corrupted)) }
        #expect(throws: TarArchive.Malformed.self) { try TarArchive.files(in: Data(tar.prefix(700))) }
        #expect(throws: TarArchive.Malformed.self) { try TarArchive.files(in: Data(repeating: 0x41, count: 1024)) }
    }

    private static func offset(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        return (0...(bytes.count - pattern.count)).first { Array(bytes[$0..<$0 + pattern.count]) == pattern }
    }
}
